FROM python:3.12-slim
WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY engine engine
COPY server server
COPY schema schema
RUN pip install --no-cache-dir .
# The server runs as a user of its own; it writes only its data folder (an embedded PostgreSQL and
# Redis when DATABASE_URL and REDIS_URL are not set).
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin spidertour \
    && mkdir -p /app/.data && chown spidertour:spidertour /app/.data
USER spidertour
ENV HOST=0.0.0.0 PORT=8000
EXPOSE 8000
# The image has no curl: Python asks /health (an error status or no answer fails the check).
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/health' % os.environ.get('PORT', '8000'), timeout=4)"
CMD ["spidertour", "serve"]
