"""Running the server in production: metrics, logs, security headers, the OpenAPI page, error
answers, health, and the garbage collector's tuning."""
