//! The body of an answer that carries no result: the object `--json` prints for a file
//! that failed (`{"file", "error": {"location", "line", "column", "message"}}`), with
//! `request` for the file when the fault is the request's, not a test's.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

/// What went wrong with a request, as the server answers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub status: StatusCode,
    pub message: String,
    /// Seconds after which to try again (`Retry-After`), for "busy".
    pub retry_after: Option<u64>,
}

#[derive(Serialize)]
struct Body<'a> {
    file: &'a str,
    error: Object<'a>,
}

#[derive(Serialize)]
struct Object<'a> {
    location: &'a str,
    line: Option<u32>,
    column: Option<u32>,
    message: &'a str,
}

impl Failure {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// 503 with `Retry-After`: every run slot is taken, or a run overran its deadline.
    pub fn busy(message: impl Into<String>, retry_after: u64) -> Failure {
        Failure {
            retry_after: Some(retry_after),
            ..Failure::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    pub fn body(&self) -> String {
        let body = Body {
            file: "request",
            error: Object {
                location: "request",
                line: None,
                column: None,
                message: &self.message,
            },
        };
        serde_json::to_string(&body).expect("an error serializes")
    }
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let mut response = json_response(self.status, self.body());
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// A JSON answer, never cached (it depends on the request).
pub fn json_response(status: StatusCode, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}
