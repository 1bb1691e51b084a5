"""MewCode agent runtime: providers, the ReAct loop, tools, permissions, state.

This package never imports a UI toolkit; front ends consume its event stream.
"""
