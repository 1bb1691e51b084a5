"""Protocol layer: the Provider interface and one implementation per vendor."""
