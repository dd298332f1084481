package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// restClient is shared by every bench_rest call in the process. One client
// with a pool sized above tofu's default -parallelism=10 keeps connections
// alive and reused, which is what a well-written Go provider does; the
// default transport keeps only 2 idle connections per host.
var restClient = &http.Client{
	Timeout:   30 * time.Second,
	Transport: newRestTransport(),
}

func newRestTransport() *http.Transport {
	// Clone the default transport to keep its dial/TLS timeouts and proxy
	// handling; only the idle pool per host changes.
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 16
	return t
}

// restCall sends one request, with reqBody (if not nil) encoded as JSON, and
// returns the status and the whole response body. The body is always read to
// the end and closed so the connection goes back to the pool. err is only
// set for failures that produced no usable HTTP answer; it names the method
// and URL (net/http's *url.Error already does).
func restCall(ctx context.Context, method, url string, reqBody any) (int, []byte, error) {
	var body io.Reader
	if reqBody != nil {
		b, err := json.Marshal(reqBody)
		if err != nil {
			return 0, nil, fmt.Errorf("%s %s: encoding request: %w", method, url, err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, body)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, url, err)
	}
	if reqBody != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	resp, err := restClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	respBody, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, nil, fmt.Errorf("%s %s: reading response: %w", method, url, err)
	}
	return resp.StatusCode, respBody, nil
}

// isSuccess reports whether status is 2xx.
func isSuccess(status int) bool {
	return status >= 200 && status < 300
}

// statusError describes a non-2xx answer for a diagnostic.
func statusError(method, url string, status int, body []byte) string {
	return fmt.Sprintf("%s %s returned HTTP %d: %s", method, url, status, bytes.TrimSpace(body))
}
