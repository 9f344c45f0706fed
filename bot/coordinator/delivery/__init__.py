"""Delivering what saved transactions announce: the courier (commit order per chat, retries),
the outbox stored with each move (``owed``), the deliverer that sends them, and the private
hands (``hands``)."""

from .courier import Courier, Job, Retry
from .deliverer import Deliverer, Delivery, Known

__all__ = ["Courier", "Deliverer", "Delivery", "Job", "Known", "Retry"]
