"""What a permission layer, a rule list or a hook decides about a call: one type for all."""

from __future__ import annotations

from typing import Literal

Decision = Literal["allow", "deny", "ask"]
