"""Game-agnostic pieces shared by the Warmachine engine and Song of Blades and Heroes.

- :mod:`.validate`: checks of plain values that raise one-line
  :class:`~mathhammer.errors.InputError` messages;
- :mod:`.limits`: trials and seeds of a run;
- :mod:`.intervals`: Wilson intervals and Student's t;
- :mod:`.jit`: the one Numba decorator factory (``cache=True``);
- :mod:`.rng`: counter-keyed xoshiro256** streams filling a buffer of pairs of dice;
- :mod:`.pairs`: what a buffer entry means (two d6);
- :mod:`.chunks`: the chunk scheme (trials per chunk, one stream per chunk), which fixes what
  a seed means for every Monte Carlo kernel of the package.
"""
