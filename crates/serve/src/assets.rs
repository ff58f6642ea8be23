//! The page and its files, embedded at build time: the server reads no file.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// One file the server serves as it is.
pub struct Asset {
    pub path: &'static str,
    pub content_type: &'static str,
    pub body: &'static [u8],
    /// Its path names its version: browsers may keep it.
    pub immutable: bool,
}

const fn page(path: &'static str, content_type: &'static str, body: &'static str) -> Asset {
    Asset {
        path,
        content_type,
        body: body.as_bytes(),
        immutable: false,
    }
}

/// The vendored Graphviz for the web (assets/vendor/viz/README.md); the version is in the
/// path, so that a new one is a new URL.
pub const VIZ_PATH: &str = "/assets/viz-3.31.0.js";

pub static ASSETS: &[Asset] = &[
    page(
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    page(
        "/assets/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    page(
        "/assets/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    Asset {
        path: VIZ_PATH,
        content_type: "text/javascript; charset=utf-8",
        body: include_bytes!("../assets/vendor/viz/viz-global.js"),
        immutable: true,
    },
    page(
        "/assets/licences/viz-js.txt",
        "text/plain; charset=utf-8",
        include_str!("../assets/vendor/viz/LICENSE-viz-js-MIT.txt"),
    ),
    page(
        "/assets/licences/graphviz.txt",
        "text/plain; charset=utf-8",
        include_str!("../assets/vendor/viz/LICENSE-Graphviz-EPL-1.0.txt"),
    ),
    page(
        "/assets/licences/expat.txt",
        "text/plain; charset=utf-8",
        include_str!("../assets/vendor/viz/LICENSE-Expat-MIT.txt"),
    ),
];

/// The page's scripts come from this server alone; the graphs' WebAssembly is compiled
/// in the page (`wasm-unsafe-eval`); nothing is loaded from elsewhere, and the page is
/// not framed.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

impl Asset {
    pub fn response(&self) -> Response {
        let cache = if self.immutable {
            "public, max-age=31536000, immutable"
        } else {
            "no-cache"
        };
        (
            StatusCode::OK,
            [
                (header::CONTENT_TYPE, self.content_type),
                (header::CACHE_CONTROL, cache),
            ],
            self.body,
        )
            .into_response()
    }
}

/// The asset at `path`, if any.
pub fn find(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}
