"""A ``%%resolve`` card whose advice's chances of winning follow it.

In a kernel the card is shown at once ("Sieg im Kampf: wird berechnet …") and updated in place
(an IPython display handle) as each option is weighed (``forecast.weighing``); outside a kernel
the card is returned without the chances.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .rules.resolution import Resolution

if TYPE_CHECKING:
    from .state import Campaign


def card_later(result: Any, campaign: Campaign) -> Any:
    """Show ``result`` (a resolution or several) and weigh its open resolutions' advice behind it on
    ``campaign``'s state (each weighing stops once its resolution is decided there); None once shown
    that way, else ``result`` for IPython to show."""
    loop = _kernel_loop()
    results = [r for r in (result if isinstance(result, list) else [result]) if isinstance(r, Resolution)]
    if loop is None or not results:
        return result
    from IPython.display import display

    from .forecast import weighing
    plain = {r.id: r.advice for r in results if r.open and r.id and r.advice}
    state = campaign.state
    found = {pid: weighing.ask(state, pid, current=lambda: campaign.folded) for pid in plain}
    weighings = {pid: w for pid, w in found.items() if w is not None}
    if not weighings:
        return result
    handle: list[Any] = []

    def current() -> Any:
        for r in results:
            if r.id in weighings:
                r.advice = weighing.shown(plain[r.id], weighings[r.id])
        return result

    def heard(_w: weighing.Weighing) -> None:   # in the weighing's thread: the update in the kernel's
        loop(lambda: handle and handle[0].update(current()))

    for w in weighings.values():
        w.listen(heard)
    handle.append(display(current(), display_id=True))
    return None


def _kernel_loop() -> Callable[[Callable[[], Any]], None] | None:
    """How to run a call in the kernel's main thread (its event loop's ``add_callback``); None outside a kernel."""
    from IPython import get_ipython
    loop = getattr(getattr(get_ipython(), "kernel", None), "io_loop", None)
    return loop.add_callback if loop is not None else None
