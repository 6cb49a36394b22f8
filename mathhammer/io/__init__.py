"""Files <-> rules objects: scenario files, card files and the card search path.

- :mod:`.schema`: the keys of every table, the names players write for them, "did you mean"
  suggestions and :class:`~mathhammer.io.schema.ScenarioFileError`;
- :mod:`.tables`: :class:`~mathhammer.io.tables.TableReader`, tables -> rules objects;
- :mod:`.cardpath`: where cards are found;
- :mod:`.cards`: card files, checked and cached;
- :mod:`.overrides`: a card's tables with a scenario's overrides, an attacker's action;
- :mod:`.scenario_files`: scenario files, text and tables (card references resolved), and
  scenarios of cards;
- :mod:`.dump`: rules objects -> the tables of a scenario file;
- :mod:`.trade_files`: trade files (docs/trades.md) <-> :class:`~mathhammer.rules.trade.Trade`.
"""
