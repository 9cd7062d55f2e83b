"""A Python client for Marketcraft's API and its weekly open data files (docs/open-data.md).

Standard library only for the API; pandas is used by load_week() and load_season() when it is
installed (they return lists of dicts without it).

    from marketcraft import Client
    game = Client("http://localhost:3000", token="mc_pat_...")
    manifest = game.manifest(world_id=7)
    prices = game.load_season(7, "prices")          # every finished week: a DataFrame with pandas
    rows = game.read_week(7, 12, "leaderboard")      # one week as a list of dicts, always

Files are immutable once their week is finished: the client checks each download against the
manifest's SHA-256 and keeps it in a cache folder (MARKETCRAFT_CACHE, default
~/.cache/marketcraft), so a notebook run twice downloads nothing the second time.
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import os
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, Iterable, List, Optional

__all__ = ["Client", "ApiError", "TABLES"]
__version__ = "1.0.0"

#: The tables of every finished week (the manifest lists their columns and units).
TABLES = ("prices", "city_retail", "leaderboard", "companies", "shares")


class ApiError(Exception):
    """An answer other than 2xx: the HTTP status and the server's message."""

    def __init__(self, status: int, message: str, url: str):
        super().__init__(f"{status} {message} ({url})")
        self.status = status
        self.message = message
        self.url = url


def _typed(value: str, column: Dict[str, Any]) -> Any:
    """A CSV field as the manifest's column type says: int, float dollars, bool, str; empty is None."""
    if value == "" and (column.get("nullable") or column["type"] != "text"):
        return None
    kind = column["type"]
    if kind in ("int32", "int64"):
        return int(value)
    if kind == "dollars":
        return float(value)
    if kind == "boolean":
        return value == "true"
    return value


class Client:
    """The API with a personal access token (read scope is enough for open data)."""

    def __init__(self, base_url: str = "http://localhost:3000", token: Optional[str] = None, cache_dir: Optional[str] = None):
        self.base_url = base_url.rstrip("/")
        self.token = token if token is not None else os.environ.get("MARKETCRAFT_TOKEN", "")
        default_cache = os.path.join(os.path.expanduser("~"), ".cache", "marketcraft")
        self.cache_dir = cache_dir if cache_dir is not None else os.environ.get("MARKETCRAFT_CACHE", default_cache)
        self._manifests: Dict[int, Dict[str, Any]] = {}
        #: The world every request acts in (the X-World-Id header); None: the public world.
        self.world_id: Optional[int] = None

    # --- the API ---------------------------------------------------------------------------

    def _request(self, path: str, headers: Optional[Dict[str, str]] = None) -> bytes:
        return self._respond(path, headers)[0]

    def _respond(self, path: str, headers: Optional[Dict[str, str]] = None, method: str = "GET", body: Any = None):
        """The answer's body and headers; waits out a 429 (Retry-After) and raises ApiError for any other error."""
        url = path if path.startswith("http") else f"{self.base_url}{path if path.startswith('/api') else '/api' + path}"
        request_headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json", **(headers or {})}
        if self.world_id is not None:
            request_headers["X-World-Id"] = str(self.world_id)
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            request_headers["Content-Type"] = "application/json"
        while True:
            request = urllib.request.Request(url, data=data, headers=request_headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=300) as response:
                    return response.read(), response.headers
            except urllib.error.HTTPError as error:
                body = error.read()
                if error.code == 429:
                    # Over the rate limit: wait as long as the server says, then ask again.
                    time.sleep(float(error.headers.get("Retry-After", "5")))
                    continue
                try:
                    message = json.loads(body)["error"]
                except (ValueError, KeyError, TypeError):
                    message = body.decode("utf-8", "replace")[:200]
                raise ApiError(error.code, message, url) from None

    def get(self, path: str, **query: Any) -> Any:
        """GET /api<path> as JSON, e.g. get("/leaderboard", limit=50)."""
        if query:
            path = f"{path}?{urllib.parse.urlencode(query)}"
        return json.loads(self._request(path))

    def post(self, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        """POST /api<path> with a JSON body, as JSON, e.g. post("/market/trade", {...})."""
        return json.loads(self._respond(path, method="POST", body=body if body is not None else {})[0])

    # --- sandboxes (docs/scripting.md, "Backtesting in a sandbox") ------------------------------

    def in_world(self, world_id: int) -> "Client":
        """A client whose requests act in that world (X-World-Id): your company and the market there."""
        bound = Client(self.base_url, token=self.token, cache_dir=self.cache_dir)
        bound.world_id = int(world_id)
        return bound

    def fork(self, world_id: int, week: int, private: bool = True, **changes: Any) -> Dict[str, Any]:
        """POST /worlds/{id}/fork: a sandbox of the public world at the start of `week` (private=True,
        a token of the manage scope), replayed from its log; answers the new world. `changes`: name,
        shock, tax_rates, bots (docs/replay.md)."""
        return self.post(f"/worlds/{int(world_id)}/fork", {"week": int(week), "private": private, **changes})

    def advance(self, world_id: int) -> int:
        """POST /worlds/{id}/advance: the next turn of your sandbox, waited for; answers its new week."""
        return int(self.post(f"/worlds/{int(world_id)}/advance")["current_week"])

    def world(self, world_id: int) -> Dict[str, Any]:
        """GET /worlds/{id}: the world's week, its clock, and for a sandbox when it is deleted."""
        return self.get(f"/worlds/{int(world_id)}")

    # --- open data ---------------------------------------------------------------------------

    def manifest(self, world_id: int, refresh: bool = False) -> Dict[str, Any]:
        """The world's manifest: tables with their columns and units, finished weeks with their files."""
        if refresh or world_id not in self._manifests:
            self._manifests[world_id] = self.get(f"/data/worlds/{int(world_id)}/manifest.json")
        return self._manifests[world_id]

    def weeks(self, world_id: int) -> List[int]:
        """The finished weeks that have data files, oldest first."""
        return [entry["week"] for entry in self.manifest(world_id)["weeks"]]

    def columns(self, world_id: int, table: str) -> List[Dict[str, Any]]:
        """A table's columns: name, type, unit, description, nullable."""
        for spec in self.manifest(world_id)["tables"]:
            if spec["name"] == table:
                return spec["columns"]
        raise ValueError(f"Unknown table: {table}. The tables are {', '.join(TABLES)}")

    def _file_entry(self, world_id: int, week: int, table: str, fmt: str) -> Dict[str, Any]:
        """The manifest's entry of a file; a finished week whose files are not made yet has none: its URL, checked by ETag."""
        if table not in TABLES and table not in {spec["name"] for spec in self.manifest(world_id)["tables"]}:
            raise ValueError(f"Unknown table: {table}. The tables are {', '.join(TABLES)}")
        for refresh in (False, True):
            for entry in self.manifest(world_id, refresh=refresh)["weeks"]:
                if entry["week"] == week:
                    for file in entry["files"]:
                        if file["table"] == table and file["format"] == fmt:
                            return file
                    return {"url": f"/api/data/worlds/{int(world_id)}/weeks/{int(week)}/{table}.{fmt}", "sha256": None}
        raise ValueError(f"World {world_id} has no {table}.{fmt} for week {week}: weeks with files are {self.weeks(world_id)}")

    def download(self, world_id: int, week: int, table: str, fmt: str = "csv.gz") -> bytes:
        """One file's bytes, checked against its SHA-256 (the manifest's, or the ETag) and cached: a finished week never changes."""
        entry = self._file_entry(world_id, week, table, fmt)
        if entry["sha256"] and self.cache_dir:
            cached = os.path.join(self.cache_dir, entry["sha256"])
            if os.path.exists(cached):
                with open(cached, "rb") as handle:
                    return handle.read()
        content, headers = self._respond(entry["url"])
        expected = entry["sha256"] or (headers.get("ETag") or "").strip('"')
        digest = hashlib.sha256(content).hexdigest()
        if digest != expected:
            raise ApiError(0, f"{table}.{fmt} of week {week} does not match its checksum", entry["url"])
        if self.cache_dir:
            os.makedirs(self.cache_dir, exist_ok=True)
            cached = os.path.join(self.cache_dir, digest)
            with open(cached + ".part", "wb") as handle:
                handle.write(content)
            os.replace(cached + ".part", cached)
        return content

    def read_week(self, world_id: int, week: int, table: str) -> List[Dict[str, Any]]:
        """One week of a table as a list of dicts, each value typed by the manifest (standard library only)."""
        columns = {column["name"]: column for column in self.columns(world_id, table)}
        text = gzip.decompress(self.download(world_id, week, table, "csv.gz")).decode("utf-8")
        return [{name: _typed(value, columns[name]) for name, value in row.items()} for row in csv.DictReader(io.StringIO(text, newline=""))]

    def read_season(self, world_id: int, table: str, weeks: Optional[Iterable[int]] = None) -> List[Dict[str, Any]]:
        """Several weeks of a table (default every finished week) as one list of dicts, oldest week first."""
        chosen = list(weeks) if weeks is not None else self.weeks(world_id)
        rows: List[Dict[str, Any]] = []
        for week in chosen:
            rows.extend(self.read_week(world_id, week, table))
        return rows

    def load_week(self, world_id: int, week: int, table: str):
        """One week of a table: a pandas DataFrame when pandas is installed, else a list of dicts."""
        return _frame(self.read_week(world_id, week, table), self.columns(world_id, table))

    def load_season(self, world_id: int, table: str, weeks: Optional[Iterable[int]] = None):
        """Several weeks of a table (default every finished week): a DataFrame with pandas, else a list of dicts."""
        return _frame(self.read_season(world_id, table, weeks), self.columns(world_id, table))


def _frame(rows: List[Dict[str, Any]], columns: List[Dict[str, Any]]):
    try:
        import pandas  # optional
    except ImportError:
        return rows
    return pandas.DataFrame(rows, columns=[column["name"] for column in columns])
