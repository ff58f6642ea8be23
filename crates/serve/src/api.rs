//! The routes: the page and its files, the catalog and examples, and the runs.

use crate::assets;
use crate::backend::{Answer, Backend, DiffRequest, DiyRequest, RunRequest};
use crate::body::{JsonBody, MaxBody};
use crate::config::Limits;
use crate::corpus;
use crate::errors::{json_response, Failure};
use crate::slots::Slots;
use axum::extract::{FromRef, Path, State};
use axum::http::{header, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::sync::Arc;
use tower_http::timeout::RequestBodyTimeoutLayer;

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    backend: Arc<dyn Backend>,
    limits: Limits,
    slots: Slots,
    /// `GET /api/catalog`, made once.
    catalog: Arc<str>,
}

impl FromRef<App> for MaxBody {
    fn from_ref(app: &App) -> MaxBody {
        MaxBody(app.limits.max_body)
    }
}

impl App {
    pub fn new(backend: Arc<dyn Backend>, limits: Limits) -> App {
        let catalog = Arc::from(backend.catalog(&limits));
        App {
            slots: Slots::new(limits.max_runs, limits.deadline()),
            backend,
            limits,
            catalog,
        }
    }
}

pub fn router(app: App) -> Router {
    let read_timeout = app.limits.read_timeout;
    Router::new()
        .route("/api/catalog", get(catalog))
        .route("/api/example/{*path}", get(example))
        .route("/api/run", post(run))
        .route("/api/diff", post(diff))
        .route("/api/diy", post(diy))
        .fallback(file)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(RequestBodyTimeoutLayer::new(read_timeout))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(app)
}

async fn catalog(State(app): State<App>) -> Response {
    json_response(StatusCode::OK, app.catalog.to_string())
}

/// An example's text, from the embedded corpus (never the disk).
async fn example(Path(path): Path<String>) -> Response {
    match corpus::example(&path) {
        Some(text) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            text,
        )
            .into_response(),
        None => Failure::new(
            StatusCode::NOT_FOUND,
            format!("no example `{path}`: /api/catalog lists them"),
        )
        .into_response(),
    }
}

async fn run(State(app): State<App>, JsonBody(req): JsonBody<RunRequest>) -> Response {
    let bounds = match req.options.bounds(&app.limits) {
        Ok(b) => b,
        Err(e) => return Failure::new(StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    };
    let backend = app.backend.clone();
    answer(app.slots.run(move || backend.run(&req, &bounds)).await)
}

async fn diff(State(app): State<App>, JsonBody(req): JsonBody<DiffRequest>) -> Response {
    let bounds = match req.options.bounds(&app.limits) {
        Ok(b) => b,
        Err(e) => return Failure::new(StatusCode::BAD_REQUEST, e.to_string()).into_response(),
    };
    let backend = app.backend.clone();
    answer(app.slots.run(move || backend.diff(&req, &bounds)).await)
}

async fn diy(State(app): State<App>, JsonBody(req): JsonBody<DiyRequest>) -> Response {
    let backend = app.backend.clone();
    answer(app.slots.run(move || backend.diy(&req)).await)
}

/// The backend's answer, its refusal, or the server's own failure.
fn answer(result: Result<Answer, Failure>) -> Response {
    match result {
        Ok(Ok(body)) => json_response(StatusCode::OK, body),
        Ok(Err(refusal)) => {
            let status = StatusCode::from_u16(refusal.status).unwrap_or(StatusCode::BAD_REQUEST);
            json_response(status, refusal.body)
        }
        Err(failure) => failure.into_response(),
    }
}

/// The page and its files; anything else is a 404.
async fn file(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return method_not_allowed().await;
    }
    match assets::find(uri.path()) {
        Some(asset) => asset.response(),
        None => Failure::new(
            StatusCode::NOT_FOUND,
            format!(
                "nothing at {}: the page is at /, the API under /api/ (docs/serve.md)",
                uri.path()
            ),
        )
        .into_response(),
    }
}

async fn method_not_allowed() -> Response {
    Failure::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method not allowed: the API takes GET for /api/catalog and /api/example/PATH, POST for /api/run, /api/diff and /api/diy",
    )
    .into_response()
}

/// Headers every answer carries: the page loads nothing from elsewhere and is not
/// framed, and no type is sniffed.
async fn security_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(assets::CONTENT_SECURITY_POLICY),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}
