"""The one error base of the rulesets, and the one reader of their data files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from ..errors import RpgError
from ..messages import t

#: libyaml's safe loader reads the shipped tables several times faster than the pure-Python one
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class RulesError(RpgError, ValueError):
    """A value, action or data file the ruleset's seed (or the GM's data) does not allow.

    Each ruleset names its own subclass (``OsrError``, ``MidgardError``, ...), so a GM's
    script can tell the rulesets apart and still catch them all as ``RulesError``.
    """


def read_yaml(path: str | Path, error: type[RulesError] = RulesError, message: str = "rules.bad_file") -> Any:
    """The YAML document at ``path`` (plain values only: the safe loader, libyaml's where PyYAML has it).

    A file that cannot be read raises ``error`` with the catalogue text ``message``, given the
    file's ``path`` and the first line of the ``reason`` (a ruleset names what the file should
    have been: "Die Angriffsmatrix ... ist unvollständig").
    """
    source = Path(path)
    try:
        return yaml.load(source.read_text(encoding="utf-8"), Loader=_LOADER)
    except OSError as err:
        raise error(t(message, path=str(source), reason=err.strerror or str(err))) from None
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise error(t(message, path=str(source), reason=str(err).splitlines()[0])) from None
