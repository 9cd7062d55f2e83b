"""A Marketcraft company bot: once per turn it reads the market, restocks every store shelf and
sells the warehouse's surplus on the market. Guide: docs/scripting.md, or the Learning Base's
"Scripting" tab; the game serves this file at /examples/company_bot.py.

    MARKETCRAFT_TOKEN=mc_pat_... python3 company_bot.py          # runs every turn until stopped
    MARKETCRAFT_TOKEN=mc_pat_... python3 company_bot.py --once   # one pass, then exits

Needs Python 3.9+ and requests (pip install requests). The token needs the "trade" scope.
MARKETCRAFT_URL is the game's address (default http://localhost:3000).
"""
import os
import sys
import time

import requests

BASE_URL = os.environ.get("MARKETCRAFT_URL", "http://localhost:3000")
TOKEN = os.environ.get("MARKETCRAFT_TOKEN", "")

RESTOCK_TO = 50  # units on every shelf after restocking
MARKUP = 1.25  # retail price = the city's market price x 1.25
KEEP_IN_WAREHOUSE = 100  # units of each product kept for production; the rest is sold
CHECK_EVERY_SECONDS = 60  # how often to look whether a new turn (week) began

session = requests.Session()
session.headers["Authorization"] = f"Bearer {TOKEN}"


class ApiError(Exception):
    pass


def api(method, path, body=None):
    """One API call. Waits and retries when the rate limit answers 429; raises the server's message on any other error."""
    while True:
        response = session.request(method, f"{BASE_URL}/api{path}", json=body, timeout=30)
        if response.status_code == 429:
            seconds = int(response.headers.get("Retry-After", "5"))
            print(f"Rate limited: waiting {seconds} s")
            time.sleep(seconds)
            continue
        data = response.json()
        if not response.ok:
            raise ApiError(f"{method} {path}: {response.status_code} {data['error']}")
        return data


def restock_stores():
    """Fills every shelf of every store back up to RESTOCK_TO units, bought at the city's market price."""
    for store in api("GET", "/buildings"):
        if store["category"] != "retail":
            continue
        for product in api("GET", f"/stores/{store['id']}/products"):
            missing = RESTOCK_TO - product["quantity"]
            if missing <= 0 or product["market_price"] is None:
                continue
            try:
                api("POST", f"/buildings/{store['id']}/inventory/purchase", {"product_id": product["product_id"], "quantity": missing})
                retail_price = round(product["market_price"] * MARKUP, 2)
                api(
                    "POST",
                    f"/buildings/{store['id']}/inventory/transfer-to-store",
                    {"product_id": product["product_id"], "quantity": missing, "retail_price": retail_price},
                )
                print(f"Restocked {missing} {product['product_name']} in {store['name']} ({store['city_name']}) at ${retail_price}")
            except ApiError as error:
                print(f"Could not restock {product['product_name']}: {error}")


def sell_surplus():
    """Sells what the warehouse holds beyond KEEP_IN_WAREHOUSE units of a product."""
    for item in api("GET", "/inventory"):
        surplus = item["quantity"] - KEEP_IN_WAREHOUSE
        if surplus <= 0:
            continue
        sale = api("POST", "/market/trade", {"product_id": item["product_id"], "quantity": surplus, "action": "sell"})
        print(f"Sold {surplus} {item['product_name']} for ${sale['total']}")


def play_turn(week):
    company = api("GET", "/company")
    print(f"Week {week}: {company['name']} has ${company['cash']}")
    restock_stores()
    sell_surplus()


def main():
    if not TOKEN:
        sys.exit("Set MARKETCRAFT_TOKEN to a personal access token (create one on your Company Profile).")
    last_week = 0
    while True:
        world = api("GET", "/world")
        if world["current_week"] != last_week:
            play_turn(world["current_week"])
            last_week = world["current_week"]
            if "--once" in sys.argv:
                return
            print(f"Next turn at {world['next_turn_at'] or 'when an admin advances it'}")
        time.sleep(CHECK_EVERY_SECONDS)


if __name__ == "__main__":
    main()
