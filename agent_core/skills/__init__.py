"""Skills (docs/configuration.md#skills): folders with a SKILL.md the model loads by name when they help.

``loader`` finds and parses them (three layers), ``scoring`` and ``index`` pick
the few worth naming for a prompt, ``skills_context`` offers that index per
prompt, and ``buffer`` holds loaded bodies until the next tool results carry them.
"""
