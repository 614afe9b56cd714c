"""explain-rule: a variant, one of its rules, or a term across variants, explained from the rule
files (text, values, options) and worked examples computed live by the engine.

    entries.py   the fans, options, special rules and settings of a ruleset; finding one
    terms.py     the seed documents' rule terms (data/terms.yaml) and where each variant has them
    overview.py  a variant for a player: tiles, calls, winning, scoring, payment, options, origin
    detail.py    one rule: text, value, exclusions, option values, live examples
    render.py    the table (text) form of all of the above

May import batch (worked examples), scoring, rules and below; never cli.
"""
