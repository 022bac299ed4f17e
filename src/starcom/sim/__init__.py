"""Simulation tools: self-play, benchmarks, saved games (records)."""
