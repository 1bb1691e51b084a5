"""widgets of the MewCode TUI."""
