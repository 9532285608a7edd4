"""The base of every widget: front end assembled from ``widgets/``, German
errors instead of tracebacks, a stable plain-text form; a widget whose campaign
was closed says so quietly and stops following it, and a widget on screen is
drawn anew when the language is switched (``relabel``).
"""

from __future__ import annotations

import weakref
from typing import Any, ClassVar

import anywidget
import traitlets

from ..assets import asset
from ..errors import RpgError
from ..messages import labels, t, when_switched

#: the widgets made in this process and not yet closed or collected (each relabels on a language switch)
_LIVE: weakref.WeakSet[Widget] = weakref.WeakSet()


def relabel_live() -> None:
    """Every live widget in the language now in force (``messages.when_switched``)."""
    for widget in list(_LIVE):
        widget.relabel()


class Widget(anywidget.AnyWidget):
    """An anywidget whose front end is built from files in ``widgets/``.

    Subclasses list their files in ``parts`` (JS, the last exporting ``render``) and ``styles``
    (CSS), and handle front-end messages ``{"type": name, ...}`` in ``on_<name>(content)``; an
    ``RpgError`` there is shown as German text. A campaign's widget follows it (``_follow``,
    ``_changed``); once the campaign is closed, ``closed`` is set and later messages change nothing.
    """

    parts: ClassVar[tuple[str, ...]] = ()
    styles: ClassVar[tuple[str, ...]] = ()
    #: dict traits the front end sends along with its messages (what it last wrote there): a
    #: state update that ipywidgets still holds back must not make an action use older input
    carried: ClassVar[tuple[str, ...]] = ()
    #: messages that only read: their success leaves a shown error alone
    reads: ClassVar[frozenset[str]] = frozenset({"poll"})
    #: catalogue keys with these prefixes go to the front end (``L(model, key)``)
    label_prefixes: ClassVar[tuple[str, ...]] = ()

    error = traitlets.Unicode("").tag(sync=True)
    closed = traitlets.Unicode("").tag(sync=True)    # the campaign was closed: what the widget says instead
    labels = traitlets.Dict().tag(sync=True)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if "parts" in cls.__dict__:  # not for the subclasses traitlets derives at run time
            cls._esm = "\n".join(asset(name) for name in ("common.js", *cls.parts))
            cls._css = "\n".join(asset(name) for name in ("card.css", "widgets.css", *cls.styles))
        super().__init_subclass__(**kwargs)

    def __init__(self, **kwargs: Any) -> None:
        # the labels go with the first state the front end receives, not in a message of their own
        kwargs.setdefault("labels", self._labels())
        super().__init__(**kwargs)
        self.on_msg(self._dispatch)
        _LIVE.add(self)
        when_switched(relabel_live)

    def _labels(self) -> dict[str, str]:
        return {k: v for p in ("widget.", *self.label_prefixes) for k, v in labels(p).items()}

    def relabel(self) -> None:
        """Every text in the language now in force: the labels, and the traits ``_texts`` fills."""
        if self._campaign_closed():
            return
        with self.hold_sync():
            self.labels = self._labels()
            self._texts()

    def _texts(self) -> None:
        """Fill the traits that hold texts anew; a widget that follows a campaign: its ``_changed``."""
        changed = getattr(self, "_changed", None)
        if changed is not None and getattr(self, "campaign", None) is not None:
            changed(self.campaign)

    def _dispatch(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
            return
        handler = getattr(self, "on_" + content["type"], None)
        if handler is None:
            return
        self.handle(handler, content)

    def handle(self, handler: Any, content: dict[str, Any]) -> None:
        """Run a message handler; its German error (or none) lands in ``error``.

        The front end receives the resulting state in one message.
        """
        with self.hold_sync():
            if self._campaign_closed():
                return
            for name in self.carried:
                if isinstance(content.get(name), dict):
                    setattr(self, name, content[name])
            try:
                handler(content)
            except RpgError as err:
                self.error = str(err)
            else:
                if content["type"] not in self.reads:
                    self.error = ""

    def _follow(self, campaign: Any) -> None:
        self._stop = campaign.watch(self._on_campaign)

    def _on_campaign(self, campaign: Any) -> None:
        if not self._campaign_closed():
            self._changed(campaign)

    def _campaign_closed(self) -> bool:
        """Whether the widget's campaign is closed; the first time, say so and stop watching it."""
        campaign = getattr(self, "campaign", None)
        if campaign is None or not campaign.store.closed:
            return False
        if not self.closed:
            self.closed = t("widget.closed", where=campaign.store.where)
            self.error = ""
            self._unwatch()
        return True

    def _unwatch(self) -> None:
        stop, self._stop = getattr(self, "_stop", None), None
        if stop is not None:
            stop()

    def close(self) -> None:
        self._unwatch()
        _LIVE.discard(self)
        super().close()

    def text(self) -> str:
        """The plain-text form (stable across runs, for nbval and terminals)."""
        return type(self).__name__

    def __repr__(self) -> str:
        return self.text()
