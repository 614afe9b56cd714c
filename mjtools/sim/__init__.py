"""simulate: whole hands played by bots under a rule file's wall, calls and play sections.

May import scoring, rules, patterns, analysis and tiles; never batch, explain or cli. The
modules are listed in docs/architecture.md.
"""
