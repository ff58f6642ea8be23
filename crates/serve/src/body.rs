//! Reading a request's JSON body within the server's bounds: its size is checked before
//! it is read (a declared length) and while it is read (a chunked one), and every way
//! the body can be wrong is a 4xx with a message, never a panic.

use crate::errors::Failure;
use axum::body::Body;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use serde::de::DeserializeOwned;

/// A request body read as JSON into `T`.
pub struct JsonBody<T>(pub T);

/// The largest body a request may have (set per router, from the limits).
#[derive(Debug, Clone, Copy)]
pub struct MaxBody(pub usize);

impl<S, T> FromRequest<S> for JsonBody<T>
where
    S: Send + Sync,
    T: DeserializeOwned,
    MaxBody: axum::extract::FromRef<S>,
{
    type Rejection = Failure;

    async fn from_request(req: Request, state: &S) -> Result<Self, Failure> {
        let MaxBody(max) = axum::extract::FromRef::from_ref(state);
        let declared = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        if declared.is_some_and(|n| n > max as u64) {
            return Err(too_large(max));
        }
        let bytes = match axum::body::to_bytes(Body::new(req.into_body()), max).await {
            Ok(b) => b,
            Err(e) if caused_by::<http_body_util::LengthLimitError>(&e) => {
                return Err(too_large(max))
            }
            Err(e) if caused_by::<tower_http::timeout::TimeoutError>(&e) => {
                return Err(Failure::new(
                    StatusCode::REQUEST_TIMEOUT,
                    "the request's body did not arrive in time",
                ))
            }
            Err(e) => {
                return Err(Failure::new(
                    StatusCode::BAD_REQUEST,
                    format!("the request's body could not be read: {e}"),
                ))
            }
        };
        // serde_json refuses invalid UTF-8 and nesting deeper than 128 with an error.
        serde_json::from_slice(&bytes).map(JsonBody).map_err(|e| {
            Failure::new(
                StatusCode::BAD_REQUEST,
                format!("the request is not the JSON this endpoint takes (docs/serve.md): {e}"),
            )
        })
    }
}

fn too_large(max: usize) -> Failure {
    Failure::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the request is larger than this server's limit of {max} bytes"),
    )
}

/// Is `E` among the causes of `e` (the body went past the limit, or stopped arriving)?
fn caused_by<E: std::error::Error + 'static>(e: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if s.is::<E>() {
            return true;
        }
        source = s.source();
    }
    false
}
