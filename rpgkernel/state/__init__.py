"""Campaign state: the event journal and the stores that keep it.

Events are immutable; a store only appends. ``open_store`` picks SQLite for a
file path and PostgreSQL for a ``postgresql://`` URL (psycopg is imported only
then). What is damaged is a ``Damage``, raised as ``CampaignDamaged``.
Nothing here imports IPython.
"""

from ..errors import StoreError
from .campaign import Campaign
from .damage import CampaignDamaged, Damage
from .transaction import CampaignError
from .views import Encounter, Figure
from .events import Event, new_tx
from .journal import Journal
from .postgres import PostgresStore
from .sqlite import SQLiteStore
from .opening import open_store
from .store import MAX_EVENT_BYTES, Store

__all__ = ["MAX_EVENT_BYTES", "Campaign", "CampaignDamaged", "CampaignError", "Damage", "Encounter", "Event",
           "Figure", "Journal",
           "PostgresStore", "SQLiteStore", "Store", "StoreError", "new_tx", "open_store"]
