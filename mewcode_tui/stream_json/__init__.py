"""The stream-json front end: the Claude Agent SDK's control protocol over stdio (docs/manual.md#claude-agent-sdk)."""
