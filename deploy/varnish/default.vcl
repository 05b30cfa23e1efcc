# Varnish 7.1 in front of sukti, with varnish-modules' xkey (Debian: varnish,
# varnish-modules). sukti names what each page shows in an `xkey` header and
# calls PURGE_URL after a write with the tags it changed; this file keeps pages
# for their `s-maxage`, serves them stale for `stale-while-revalidate` while one
# fetch refreshes them, and purges by tag. Choices: docs/decisions/058-*.md;
# how to run it: deploy/varnish/README.md.
vcl 4.1;

import std;
import xkey;

# sukti on loopback (HOST=127.0.0.1 PORT=3000 npm start, TRUST_PROXY=loopback).
backend sukti {
    .host = "127.0.0.1";
    .port = "3000";
    .connect_timeout = 2s;
    # A render or a search waits at most this long.
    .first_byte_timeout = 30s;
    .between_bytes_timeout = 10s;
}

# Who may set X-Forwarded-Proto: the TLS terminator (hitch, nginx) on this machine.
acl proxies {
    "127.0.0.1";
    "::1";
}

# Who may purge: the machines that run `sukti import` / `sukti sync`.
acl purgers {
    "127.0.0.1";
    "::1";
}

sub vcl_recv {
    # A purge: PURGE_URL receives `xkey-purge: t1 t2` (any method, POST from
    # sukti's hook, PURGE by hand). Hard purge: a removed post is gone at once.
    # `xkey-softpurge: t1 t2` keeps the objects for grace instead (an edit may
    # be served stale while one fetch replaces it).
    if (req.http.xkey-purge || req.http.xkey-softpurge || req.method == "PURGE") {
        if (client.ip !~ purgers) {
            return (synth(403, "Forbidden"));
        }
        if (req.http.xkey-purge) {
            set req.http.x-purged = xkey.purge(req.http.xkey-purge);
        } else if (req.http.xkey-softpurge) {
            set req.http.x-purged = xkey.softpurge(req.http.xkey-softpurge);
        } else {
            return (synth(400, "Bad Request"));
        }
        return (synth(200, "Purged"));
    }

    # The client's address and scheme reach sukti (TRUST_PROXY): Varnish
    # appends client.ip to X-Forwarded-For itself; the scheme is the TLS
    # terminator's (hitch, nginx) when it came through one on loopback, else http.
    if (!req.http.X-Forwarded-Proto || client.ip !~ proxies) {
        set req.http.X-Forwarded-Proto = "http";
    }

    # Writes (POST /stats/beacon, /push/subscriptions …) and anything else
    # that is not a read go straight to sukti, never cached.
    if (req.method != "GET" && req.method != "HEAD") {
        return (pass);
    }

    # sukti reads no cookie: a visitor's cookies (analytics on the same
    # domain) must not make every page a miss.
    unset req.http.Cookie;

    # One compressed copy per page: gzip or nothing (Varnish gunzips for the
    # rare client without gzip).
    if (req.http.Accept-Encoding ~ "gzip") {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }

    # Authorization (sukti asks for none) and the rest: Varnish's built-in rules.
}

sub vcl_hit {
    set req.http.x-cache = "HIT";
    if (obj.ttl <= 0s) {
        # Within grace: served stale while one background fetch refreshes it.
        set req.http.x-cache = "HIT-STALE";
    }
}

sub vcl_miss {
    set req.http.x-cache = "MISS";
}

sub vcl_pass {
    set req.http.x-cache = "PASS";
}

sub vcl_backend_response {
    # Varnish takes the TTL from s-maxage (else max-age) and the grace from
    # stale-while-revalidate itself. Without stale-while-revalidate, 10 s.
    if (beresp.http.Cache-Control !~ "stale-while-revalidate") {
        set beresp.grace = 10s;
    }
    # Keep expired objects a day for conditional fetches (If-None-Match: sukti
    # answers 304 for an unchanged page).
    set beresp.keep = 1d;

    # Never shared: a per-visitor page (the home's gallery), or one setting a
    # cookie. The built-in rules already make these uncacheable (hit-for-miss);
    # said here so a later edit keeps it.
    if (beresp.http.Set-Cookie || beresp.http.Cache-Control ~ "(?i)private|no-store|no-cache") {
        set beresp.uncacheable = true;
        set beresp.ttl = 120s;
        return (deliver);
    }
    # sukti answered with its own stale copy while it renders the new one
    # (X-Cache: STALE, decision 057): keep it a quarter of a second, so a purge
    # is never undone by the page it just dropped, and fetch again after that
    # (the fresh page is then at most that late; fetching a stale copy costs
    # sukti a cache hit).
    if (beresp.http.X-Cache == "STALE") {
        set beresp.ttl = 0.25s;
        set beresp.grace = 0s;
        return (deliver);
    }
    # Errors are not kept (a 404 of a post that is about to be published).
    if (beresp.status >= 400) {
        set beresp.uncacheable = true;
        set beresp.ttl = 10s;
        return (deliver);
    }
}

sub vcl_deliver {
    set resp.http.X-Varnish-Cache = req.http.x-cache;
    # The tag headers are for caches, not visitors; a purger's request with
    # `X-Cache-Debug: 1` sees them (and the object's hits).
    if (req.http.X-Cache-Debug && client.ip ~ purgers) {
        set resp.http.X-Varnish-Hits = obj.hits;
    } else {
        unset resp.http.xkey;
        unset resp.http.Surrogate-Key;
        unset resp.http.Cache-Tag;
    }
}

sub vcl_synth {
    if (req.http.x-purged) {
        set resp.http.Content-Type = "application/json";
        set resp.http.xkey-purged = req.http.x-purged;
        set resp.body = {"{"purged":"} + req.http.x-purged + {"}"} + {"
"};
        return (deliver);
    }
}
