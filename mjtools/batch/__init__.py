"""Cases to records, below the CLI: what `score`, `wait` and `shanten` print for each case.

May import scoring, rules, patterns, analysis and tiles, and `mjtools.sim` for the simulate
worked examples; never `mjtools.cli`.

    cases.py       a hand on the command line or one case per --input line -> one record each
    records.py     the shanten and wait records (docs/cli-contract.md)
    plain.py       `shanten --input` of plain hand lines in bulk through the fast path
    vectorised.py  the same over numpy arrays (numpy is a dependency)
    examples.py    a rule file's worked examples run as cases and compared with what they expect
"""
