"""Outbound network guards: how a URL's host is read, and which addresses MewCode may reach."""
