//! Who may talk to the server from a browser, and what the browser is told to allow. A request
//! must name the server as its Host (its address, a localhost name, or a name given with
//! `--public-url`): a page whose DNS name was turned to the server's address (DNS rebinding)
//! names its own. A request that changes something, and every WebSocket, must come from the
//! server's own page (its Origin). Every answer carries headers that keep the page out of other
//! sites' frames and its addresses out of referrers, and the page to its own scripts.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// The names (beyond IP addresses and localhost) the server answers to, and the proxies whose
/// `X-Forwarded-For` it believes.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    /// Host names of `--public-url`, lowercase.
    names: Vec<String>,
    /// The origins of `--public-url` (`https://table.example.org`), lowercase.
    origins: Vec<String>,
    /// The reverse proxies of `--trusted-proxy`.
    proxies: Vec<IpAddr>,
}

impl Origins {
    /// Adds the address people reach the server by (`https://table.example.org`, with a port
    /// if not the scheme's), or says why it is not one.
    pub fn add_public_url(&mut self, url: &str) -> Result<(), String> {
        let bad =
            || format!("`{url}`: a public URL is `http://NAME[:PORT]` or `https://NAME[:PORT]`");
        let (scheme, rest) = url.split_once("://").ok_or_else(bad)?;
        if scheme != "http" && scheme != "https" {
            return Err(bad());
        }
        let authority = rest
            .split('/')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let name = host_name(&authority).ok_or_else(bad)?;
        if name.is_empty() {
            return Err(bad());
        }
        self.names.push(name.to_string());
        self.origins.push(format!("{scheme}://{authority}"));
        Ok(())
    }

    /// Believes `X-Forwarded-For` on connections from `proxy`.
    pub fn add_trusted_proxy(&mut self, proxy: IpAddr) {
        self.proxies.push(proxy);
    }

    /// The trusted proxies.
    pub fn proxies(&self) -> &[IpAddr] {
        &self.proxies
    }

    /// True when connections from `peer` come through a trusted proxy.
    pub fn is_proxy(&self, peer: IpAddr) -> bool {
        self.proxies.contains(&peer)
    }

    /// The client a request comes from: the connection's peer, or, when the peer is a trusted
    /// proxy, the last address of `X-Forwarded-For` that is not one of the trusted proxies.
    pub fn client(&self, peer: SocketAddr, headers: &HeaderMap) -> SocketAddr {
        if !self.is_proxy(peer.ip()) {
            return peer;
        }
        let forwarded = headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        forwarded
            .iter()
            .rev()
            .filter_map(|a| a.parse::<IpAddr>().ok())
            .find(|ip| !self.is_proxy(*ip))
            .map_or(peer, |ip| SocketAddr::new(ip, 0))
    }

    /// Why the `host` a request names is not the server's, if it is not.
    fn host_problem(&self, host: Option<&str>) -> Option<String> {
        let Some(host) = host else {
            return Some("a request must name the server in its Host header".to_string());
        };
        let host = host.to_ascii_lowercase();
        let Some(name) = host_name(&host) else {
            return Some("the Host header is not a host".to_string());
        };
        let known = name.parse::<IpAddr>().is_ok()
            || name == "localhost"
            || name.ends_with(".localhost")
            || self.names.iter().any(|n| n == name);
        (!known).then(|| {
            format!(
                "this server answers to its address, `localhost` and the names given with `yaku serve --public-url`; `{}` is not one of them",
                crate::diag::escape_control(name)
            )
        })
    }

    /// Why a request's `Origin` is not the server's own page, if it is not: the origin must be
    /// the one the request's Host names, or a public URL.
    fn origin_problem(&self, origin: &str, host: &str) -> Option<String> {
        let origin = origin.to_ascii_lowercase();
        let host = host.to_ascii_lowercase();
        let same = origin.split_once("://").is_some_and(|(scheme, authority)| {
            (scheme == "http" || scheme == "https") && authority == host
        });
        (!same && !self.origins.contains(&origin)).then(|| {
            format!(
                "a page of another site (`{}`) may not use this server",
                crate::diag::escape_control(&origin)
            )
        })
    }
}

/// The host name of `HOST[:PORT]` (an IPv6 address without its brackets).
fn host_name(authority: &str) -> Option<&str> {
    if let Some(rest) = authority.strip_prefix('[') {
        let (ip, after) = rest.split_once(']')?;
        return (after.is_empty() || after.starts_with(':')).then_some(ip);
    }
    let name = match authority.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
        Some(_) => return None,
        None => authority,
    };
    (!name.contains(['/', '@', ' '])).then_some(name)
}

/// What the server's page may load: its own scripts and styles, its own WebSocket, rule sheets
/// in its own frames; and no site may frame it.
const PAGE_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
     img-src 'self' data:; connect-src 'self'; frame-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/// What a rule sheet may load: its own inline styles, nothing else; only the server's page may
/// frame it.
const SHEET_POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'self'";
/// Every other answer (JSON, text): nothing to load, never framed.
const DATA_POLICY: &str = "default-src 'none'; frame-ancestors 'none'";

/// The middleware: the Host and Origin checks, then the security headers on the answer.
pub async fn protect(
    State(origins): State<Arc<Origins>>,
    request: Request,
    next: Next,
) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    if let Some(why) = origins.host_problem(host) {
        return (StatusCode::MISDIRECTED_REQUEST, why).into_response();
    }
    // A request that changes something, and a WebSocket, from a page: from the server's own.
    let upgrade = headers.contains_key(header::UPGRADE);
    let changes = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if (upgrade || changes)
        && let Some(origin) = headers.get(header::ORIGIN)
    {
        let origin = origin.to_str().unwrap_or("null");
        if let Some(why) = origins.origin_problem(origin, host.unwrap_or_default()) {
            return (StatusCode::FORBIDDEN, why).into_response();
        }
    }
    let page = request.uri().path() == "/";
    let mut response = next.run(request).await;
    let html = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|t| t.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    let policy = match (page, html) {
        (true, _) => PAGE_POLICY,
        (false, true) => SHEET_POLICY,
        (false, false) => DATA_POLICY,
    };
    let set = response.headers_mut();
    set.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(policy),
    );
    set.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    set.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !html || page {
        set.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_server_answers_to_its_addresses_and_public_names_only() {
        let mut origins = Origins::default();
        origins
            .add_public_url("https://Table.example.org/")
            .unwrap();
        for ok in [
            "127.0.0.1:8080",
            "[::1]:8080",
            "192.168.1.20",
            "localhost:5000",
            "app.localhost",
            "table.example.org",
            "TABLE.example.org:443",
        ] {
            assert_eq!(origins.host_problem(Some(ok)), None, "{ok}");
        }
        for bad in ["attacker.example:8080", "127.0.0.1.nip.io", "x:y:z", "a b"] {
            assert!(origins.host_problem(Some(bad)).is_some(), "{bad}");
        }
        assert!(origins.host_problem(None).is_some());
        for bad in ["ftp://x", "table.example.org", "https://"] {
            assert!(Origins::default().add_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_request_from_a_page_must_come_from_the_servers_own() {
        let mut origins = Origins::default();
        origins.add_public_url("https://table.example.org").unwrap();
        let host = "127.0.0.1:8080";
        assert_eq!(origins.origin_problem("http://127.0.0.1:8080", host), None);
        assert_eq!(
            origins.origin_problem("https://table.example.org", "table.example.org"),
            None
        );
        assert_eq!(
            origins.origin_problem("https://table.example.org", "127.0.0.1:9000"),
            None
        );
        for bad in [
            "http://evil.example",
            "http://127.0.0.1:8081",
            "null",
            "http://127.0.0.1:8080.evil",
        ] {
            assert!(origins.origin_problem(bad, host).is_some(), "{bad}");
        }
    }

    #[test]
    fn a_trusted_proxy_names_the_client() {
        let mut origins = Origins::default();
        let proxy: IpAddr = "10.0.0.1".parse().unwrap();
        origins.add_trusted_proxy(proxy);
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("1.2.3.4, 5.6.7.8, 10.0.0.1"),
        );
        let peer = SocketAddr::new(proxy, 4000);
        assert_eq!(origins.client(peer, &headers).ip().to_string(), "5.6.7.8");
        // Another peer's header is not believed.
        let other = SocketAddr::new("9.9.9.9".parse().unwrap(), 4000);
        assert_eq!(origins.client(other, &headers), other);
        // No header: the proxy itself.
        assert_eq!(origins.client(peer, &HeaderMap::new()), peer);
    }
}
