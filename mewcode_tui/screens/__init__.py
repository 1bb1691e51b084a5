"""screens of the MewCode TUI."""
