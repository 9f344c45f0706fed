"""Suite-wide settings: loopback only, no proxies, PTB's timedelta behaviour fixed."""

import os

os.environ.setdefault("PTB_TIMEDELTA", "1")
os.environ["NO_PROXY"] = "127.0.0.1,localhost"
os.environ["no_proxy"] = "127.0.0.1,localhost"
for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy"):
    os.environ.pop(var, None)
