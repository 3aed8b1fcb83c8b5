"""The FastAPI application: routers, problem-details errors, rate limit, expiry sweep."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse

from console import __version__
from console.models.contract import DEFAULT_KEY_HEADER
from console.service.api import (
    application_keys,
    applications,
    formulas,
    permissions,
    proxies,
    tenants,
)
from console.service.api.problems import Problem, problem_response
from console.service.openapi import install_openapi
from console.service.ratelimit import RateLimitMiddleware
from console.service.store import Store

log = logging.getLogger("console.service")

SWEEP_INTERVAL_SECONDS = 30.0


async def _sweep_forever(store: Store, interval: float) -> None:
    """Deletes expired applications now and then (they are hidden at once regardless)."""
    while True:
        try:
            removed = await run_in_threadpool(store.sweep_expired)
            if removed:
                log.info("Deleted %d expired application(s).", removed)
        except Exception:  # a failed sweep must not stop the service; the next one retries
            log.exception("The expiry sweep failed.")
        await asyncio.sleep(interval)


def create_app(
    store: Store,
    *,
    rate_limit: int | None = None,
    sweep_interval: float = SWEEP_INTERVAL_SECONDS,
    key_header: str = DEFAULT_KEY_HEADER,
) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(_sweep_forever(store, sweep_interval))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper

    app = FastAPI(
        title="Tenant administration API (local service)",
        version=__version__,
        description="The tenant-console's local, stateful implementation of the tenant "
        f"administration API. Authenticate with the `{key_header}` header.",
        lifespan=lifespan,
        # Starlette would answer `/applications/` with a 307 whose Location comes from the
        # request's Host header; an unknown path is a 404 problem like any other.
        redirect_slashes=False,
    )
    app.state.store = store
    app.state.key_header = key_header
    routers = (permissions, formulas, tenants, proxies, applications, application_keys)
    for module in routers:
        app.include_router(module.router)
    app.state.api_routes = [
        route for module in routers for route in module.router.routes if route.include_in_schema
    ]
    _install_error_handlers(app)
    if rate_limit:
        app.add_middleware(RateLimitMiddleware, per_minute=rate_limit, header=key_header)
    install_openapi(app)
    return app


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route serves on this path (Starlette names only the first route's)."""
    methods: set[str] = set()
    for route in request.app.state.api_routes:
        if route.path_regex.match(request.url.path):
            methods |= route.methods
    if request.url.path == "/applications/key":
        methods = {"GET"}  # not `/applications/{id}`, whose pattern it also fits
    return sorted(methods)


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
