"""Performance benchmarks (docs/benchmarks.md#benchmarks): each compares against a baseline measured in the same run."""
