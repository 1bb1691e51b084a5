"""The entry the `mewcode` command line calls to run the TUI."""

from __future__ import annotations

from mewcode_tui.session_start import TuiOptions

__all__ = ["TuiOptions", "run_tui"]


def run_tui(options: TuiOptions) -> int:
    """Run the app full-screen (or inline); returns the process exit code."""
    from mewcode_tui.app import MewCodeApp

    app = MewCodeApp(options)
    result = app.run(inline=options.inline)
    return result if isinstance(result, int) else (app.return_code or 0)
