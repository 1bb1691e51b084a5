"""The session protocol: typed ops in, one event stream out (docs/protocol.md)."""
