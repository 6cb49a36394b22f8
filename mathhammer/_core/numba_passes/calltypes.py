"""Numba's typing of a call to a built-in function, answered once per argument types
(:mod:`mathhammer._core.numba_passes`)."""

from __future__ import annotations

__all__ = ["call_typer"]


def call_typer(theirs, checking: bool = False):
    """A replacement for ``numba.core.types.functions.BaseFunction.get_call_type`` (Numba's
    own: ``theirs``) that keeps each signature it finds, so a call with the same function,
    argument types and target is answered from the record.

    Type inference asks for the signature of every operator, ``getitem`` and built-in call
    of the function, again at each pass of its fixed point: 16,583 questions in a cold
    compile of the general kernel's full variant, 999 of them different, each trying the
    function's templates in turn until one applies (``getitem`` has dozens; a template that
    does not apply raises an exception), 150,000 tries in all. A template's answer depends
    on the argument types (a type is a value: literals, arrays, dispatchers compare by what
    they are) and, for a function of ``@overload``, on the options of the function being
    compiled (Numba keeps one compiled implementation per argument types and options): the
    record is kept under both, so it gives what a new search would, and sets the
    implementation key the search sets (``_impl_keys``, read by the lowering). A question
    without an answer (an error, which type inference may meet before it knows every type)
    is searched again each time. ``checking``: each answer from the record is compared
    with a new search (``MATHHAMMER_CHECK_NUMBA_PASSES``).
    """
    from numba.core import targetconfig
    from numba.core.target_extension import get_local_target

    found: dict = {}

    def get_call_type(self, context, args, kws):
        try:
            key = (self, context, get_local_target(context), tuple(args),
                   tuple(kws.items()) if kws else (), targetconfig.ConfigStack.top_or_none())
            hash(key)
        except TypeError:  # an argument type that does not hash: search
            return theirs(self, context, args, kws)
        hit = found.get(key)
        if hit is None:
            sig = theirs(self, context, args, kws)
            found[key] = (sig, self._impl_keys[sig.args])
            return sig
        sig, impl = hit
        if checking:
            again = theirs(self, context, args, kws)
            if again != sig or self._impl_keys[sig.args] != impl:
                raise AssertionError(f"mathhammer's record of {self} for {args} differs from "
                                     f"Numba's search: {sig} / {impl} against {again} / "
                                     f"{self._impl_keys[sig.args]}")
        self._impl_keys[sig.args] = impl
        return sig

    return get_call_type
