"""Seeding a tenant of the local service with a small configuration, over HTTP."""

from __future__ import annotations

from typing import Any

import httpx

PNG = (
    "data:image/png;base64,"
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)

CODE = "module.exports = async function (req) {\n  return { ok: true };\n};\n"
PROXY_CODE = "module.exports = async (req) => {\n  req.body.card = 'x';\n  return req;\n};\n"


class Tenant:
    """One tenant seen through its bootstrap key: create objects, read them back."""

    def __init__(self, base_url: str, key: str) -> None:
        self.http = httpx.Client(base_url=base_url, headers={"SVC-API-KEY": key}, timeout=30)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.post(path, json=body)
        assert response.status_code == 201, response.text
        return response.json()

    def put(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.http.put(path, json=body)
        assert response.status_code == 200, response.text
        return response.json()

    def all(self, path: str) -> list[dict[str, Any]]:
        response = self.http.get(path, params={"size": 100})
        assert response.status_code == 200, response.text
        return response.json()["data"]

    def named(self, path: str, name: str) -> list[dict[str, Any]]:
        return [item for item in self.all(path) if item["name"] == name]

    def application(self, name: str, type_: str = "private", **extra: Any) -> dict[str, Any]:
        body = {"name": name, "type": type_, "permissions": ["token:create", "token:read"]}
        return self.post("/applications", {**body, **extra})

    def proxy(self, name: str, application_id: str | None, **extra: Any) -> dict[str, Any]:
        body: dict[str, Any] = {
            "name": name,
            "destination_url": "https://example.com/checkout",
            "request_transform": {"code": PROXY_CODE},
            "configuration": {"API_TOKEN": "s3cret-token-value", "REGION": "eu"},
            "require_auth": True,
        }
        if application_id:
            body["application"] = {"id": application_id}
        return self.post("/proxies", {**body, **extra})

    def formula(self, name: str, **extra: Any) -> dict[str, Any]:
        body = {
            "name": name,
            "description": "Says ok",
            "type": "private",
            "icon": PNG,
            "code": CODE,
            "configuration": [{"name": "TOKEN", "description": "a token", "type": "string"}],
            "request_parameters": [{"name": "card.number", "type": "string", "optional": True}],
        }
        return self.post("/reactor-formulas", {**body, **extra})

    def seed(self) -> None:
        """Two applications (one with a rule), two proxies, a formula, a setting."""
        web = self.application(
            "Checkout web",
            rules=[
                {
                    "description": "read cards",
                    "priority": 1,
                    "container": "/pci/",
                    "transform": "mask",
                    "permissions": ["token:read"],
                }
            ],
        )
        self.application("Batch jobs", "management", permissions=["proxy:read"])
        self.proxy("Checkout", web["id"])
        self.proxy("Plain", None, request_transform=None, configuration=None)
        self.formula("Card check")
        tenant = self.http.get("/tenants/self").json()
        settings = {**tenant["settings"], "deduplicate_tokens": "false", "region_hint": "eu-1"}
        self.put("/tenants/self", {"name": tenant["name"], "settings": settings})

    def close(self) -> None:
        self.http.close()
