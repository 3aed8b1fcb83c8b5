"""The FastAPI application: routers, problem-details errors, rate limit.

Each route module brings what runs beside its routes in its router's lifespan (the expiry
sweep comes with the applications' routes)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse

from console import __version__
from console.models.contract import DEFAULT_KEY_HEADER
from console.models.logs import LOG_RETENTION_SECONDS
from console.service.api import (
    application_keys,
    applications,
    formulas,
    invitations,
    logs,
    members,
    permissions,
    proxies,
    reactions,
    reactors,
    roles,
    tenant_people,
    tenants,
    webhook_delivery,
    webhooks,
)
from console.service.api.applications import SWEEP_INTERVAL_SECONDS
from console.service.api.docs import ServiceRouter
from console.service.api.problems import Problem, problem_response
from console.service.delivery.settings import DeliverySettings
from console.service.delivery.signing_key import SigningKey
from console.service.openapi import install_openapi
from console.service.provisioning import DEFAULT_PROVISION_DELAY
from console.service.ratelimit import RateLimitMiddleware
from console.service.store import Store

log = logging.getLogger("console.service")

SPECIFIED = (
    permissions,
    formulas,
    tenants,
    proxies,
    applications,
    application_keys,
    reactors,
    reactions,
    tenant_people,
    members,
    invitations,
    roles,
    logs,
    webhook_delivery,
    webhooks,
)
"""The route modules of the specification's API (and Application Keys, Reactors, Logs,
Webhooks), in routing order."""


def create_app(
    store: Store,
    *,
    rate_limit: int | None = None,
    sweep_interval: float = SWEEP_INTERVAL_SECONDS,
    key_header: str = DEFAULT_KEY_HEADER,
    routers: Sequence[ServiceRouter] = (),
    provision_delay: float = DEFAULT_PROVISION_DELAY,
    allow_unisolated: bool = False,
    log_retention: int = LOG_RETENTION_SECONDS,
    webhook_settings: DeliverySettings | None = None,
) -> FastAPI:
    """The service's app on `store`. `routers` serve more than the specification's routes
    (a test's own kind, tests/proof_kind); a router's lifespan runs with the app's.
    `provision_delay`: seconds a reactor's provisioning takes (console.service.provisioning);
    `allow_unisolated`: reactors' code may run without an OS sandbox where none can be had;
    `log_retention`: seconds audit log entries are kept (older ones are never answered, and
    the periodic sweep deletes them); `webhook_settings`: how webhook events are delivered
    (console.service.delivery.settings; None: the defaults)."""
    app = FastAPI(
        title="Tenant administration API (local service)",
        version=__version__,
        description="The tenant-console's local, stateful implementation of the tenant "
        f"administration API. Authenticate with the `{key_header}` header.",
        # Starlette would answer a collection's path with a trailing slash with a 307 whose
        # Location comes from the request's Host header; an unknown path is a 404 problem
        # like any other.
        redirect_slashes=False,
    )
    app.state.store = store
    app.state.key_header = key_header
    app.state.sweep_interval = sweep_interval
    app.state.provision_delay = provision_delay
    app.state.allow_unisolated = allow_unisolated
    app.state.log_retention = log_retention
    app.state.webhook_settings = webhook_settings or DeliverySettings()
    app.state.webhook_key = SigningKey(store.data_dir)
    """The key deliveries are signed with, made on first need (console.service.delivery)."""
    served = (*(module.router for module in SPECIFIED), *routers)
    for router in served:
        app.include_router(router)
    app.state.request_bodies = [body for router in served for body in router.bodies]
    app.state.api_routes = [
        route
        for router in served
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
    ]
    _install_error_handlers(app)
    if rate_limit:
        app.add_middleware(RateLimitMiddleware, per_minute=rate_limit, header=key_header)
    install_openapi(app)
    return app


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves on this path (Starlette names only the first route's).

    A route whose path is this very path wins over those whose pattern it fits (a request for
    `/things/key` is not one for `/things/{id}`), as it does when requests are routed."""
    path = request.url.path
    routes: list[APIRoute] = request.app.state.api_routes
    matching = [route for route in routes if route.path_regex.match(path)]
    exact = [route for route in matching if route.path == path]
    return sorted({method for route in exact or matching for method in route.methods or ()})


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Problem)
    async def _problem(request: Request, exc: Problem) -> JSONResponse:
        return problem_response(exc.status, exc.detail, exc.errors, exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        detail = {
            404: "No route matches this path.",
            405: f"The method {request.method} is not allowed on this path.",
        }.get(exc.status_code, str(exc.detail))
        return problem_response(exc.status_code, detail, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors: dict[str, list[str]] = {}
        for error in exc.errors():
            path = ".".join(str(p) for p in error.get("loc", ())[1:]) or "request"
            errors.setdefault(path, []).append(str(error.get("msg", "Invalid value.")))
        return problem_response(400, "One or more validation errors occurred.", errors)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        # Starlette re-raises after this response, and uvicorn then closes the connection:
        # the response says so, or a keep-alive client would send its next request into a
        # closed socket. (uvicorn logs the traceback; the path is logged without its query.)
        log.error("Unhandled error on %s %s: %s", request.method, request.url.path, type(exc))
        return problem_response(
            500, "The service failed unexpectedly; see its log.", headers={"Connection": "close"}
        )
