"""Performance benchmarks (SPEC §22): each compares against a baseline measured in the same run."""
