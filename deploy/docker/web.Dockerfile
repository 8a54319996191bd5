# The web UI image: apps/web's static files behind nginx, non-root, for a read-only root.
#   docker build --build-arg NGINX_IMAGE=<nginx image> -f deploy/docker/web.Dockerfile <context>
# The context is made by deploy/docker/build-images.sh: site/ (deploy/.build/web, see context.sh),
# nginx.conf (deploy/docker/web-nginx.conf) and start.sh (deploy/docker/web-start.sh). NGINX_IMAGE:
# the official image, or the local stand-in rcs-local/nginx:1.22 (deploy/docker/local-base.sh), as
# for the compose gateway.
ARG NGINX_IMAGE=nginx:1.27
FROM ${NGINX_IMAGE}
COPY nginx.conf /etc/nginx/web.conf
COPY start.sh /usr/local/bin/rcs-web-start
COPY site /usr/share/nginx/web
# Outside Kubernetes (no ConfigMap mounted), a stack on this machine's default ports.
RUN mkdir -p /etc/rcs-web \
 && printf '{"coordinator":"http://127.0.0.1:8000","pool":"http://127.0.0.1:8434"}\n' > /etc/rcs-web/config.json \
 && chmod -R a+rX /usr/share/nginx/web /etc/rcs-web /etc/nginx/web.conf \
 && chmod 755 /usr/local/bin/rcs-web-start
# uid 101 is the official image's nginx user; any non-root uid works (nginx writes only to /tmp).
USER 101:101
EXPOSE 8080
STOPSIGNAL SIGQUIT
# rcs-web-start writes the CSP's connect-src from config.json into /tmp, then execs nginx itself as the
# process (not the official image's entrypoint scripts, which edit /etc/nginx).
ENTRYPOINT ["/usr/local/bin/rcs-web-start"]
CMD ["nginx", "-c", "/etc/nginx/web.conf", "-g", "daemon off;"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /healthz HTTP/1.0\\r\\n\\r\\n' >&3 && head -c 12 <&3 | grep -q ' 200'"]
