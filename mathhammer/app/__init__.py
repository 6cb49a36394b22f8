"""The live explorer: the same page in a notebook (:func:`mathhammer.explore`) and in the
browser (``mathhammer app``).

Its state is a scenario document, the tables of a scenario file: the controls edit keys of
it, every change is checked by the scenario reader (so a bad value gets the message a file
or the command line gets, shown beside its field), and the page downloads it as the TOML
file ``mathhammer run`` reads. The modules, in the order a change goes through them:

- :mod:`.document`: the document, its keys, reading and writing it (pure Python);
- :mod:`.stages`: what to compute for it, exact or Monte Carlo by stages (pure Python);
- :mod:`.runner`: one computation at a time on a worker thread, the newest value winning;
- :mod:`.render`: a result turned into the page's figures and text (matplotlib, no Panel);
- :mod:`.pace`: which of those a value shows, and when (by what the last value took);
- :mod:`.controls` and :mod:`.view`: the Panel widgets and the page (the ``app`` extra);
- :mod:`.server`: ``mathhammer app``, the page served on 127.0.0.1 (or the network).

Importing this package imports no Panel: only :mod:`.controls`, :mod:`.view` and
:mod:`.server` need it.
"""
