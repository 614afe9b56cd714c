"""Game records in and out: Tenhou's mjlog XML, tenhou.net/6 JSON and mjai JSONL.

Readers turn a record into `model.Game` (hands of events and recorded results, tiles as codes:
kind, + RED for a red five); `replay` plays the events again through the engine and compares
every result with the record; writers turn a simulated hand back into a record. Formats and
their sources: docs/records.md.

Sits between scoring and sim: it reads rules, scoring, analysis and tiles; the simulator uses
its writers.
"""
