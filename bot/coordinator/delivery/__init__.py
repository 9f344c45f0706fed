"""Delivering what saved transactions announce: the courier (commit order per chat, retries),
the outbox stored with each move (``owed``), and the deliverer that sends tables and hands."""

from .courier import Courier, Job, Retry
from .deliverer import Deliverer, Delivery, Known

__all__ = ["Courier", "Deliverer", "Delivery", "Job", "Known", "Retry"]
