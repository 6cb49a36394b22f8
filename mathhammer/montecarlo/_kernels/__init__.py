"""Private Numba kernels of the Warmachine engine. Numeric arguments only (NamedTuples of
arrays); :mod:`mathhammer.montecarlo` is their only caller.

Pipeline inside, on the shared pieces of :mod:`mathhammer._core` (the jit factory, the
per-chunk random streams filling a buffer of pairs of dice, the chunk scheme): the steps of
an attack (:mod:`.rolls`, :mod:`.attack_steps`, :mod:`.extra_steps`, :mod:`.marking`,
:mod:`.defences`, :mod:`.suffering`, :mod:`.round_end`) over the state of
:mod:`.model_state` -> the trials of one chunk (:mod:`.single_trials` against one model,
:mod:`.many_trials` against a unit or several targets; :mod:`.plain` and, with focus or
fury, :mod:`.spend` are their fast paths) -> :mod:`.driver` (chunks over threads, counters
merged after the batch). :mod:`.layout` names the fields of the int64 tables the encoder
writes and the counters the kernels increment; :mod:`.variant` says which steps a scenario
needs compiled.
"""
