# Builds the woox_exporter container image:
#
#   docker build \
#     --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg REVISION=$(git rev-parse HEAD) \
#     --build-arg BRANCH=$(git rev-parse --abbrev-ref HEAD) \
#     --build-arg BUILD_DATE=$(date -u +%Y%m%d-%H:%M:%S) \
#     -t woox_exporter .
#
# The builder is pinned to the Go patch release go.mod asks for; bump both
# together. The runtime is distroless: no shell, CA certificates included,
# runs as the unprivileged "nonroot" user (uid 65532).
#
# Both images are pinned by tag and by digest (the multi-platform index):
# the digest decides what is pulled, the tag says what it is. A rebuilt tag
# does not change the image until the digest is bumped, deliberately:
#   docker buildx imagetools inspect golang:1.26.8-bookworm
#   docker buildx imagetools inspect gcr.io/distroless/static-debian12:nonroot
# (the "Digest:" line; or `crane digest IMAGE`). Update tag and digest
# together: with both given, Docker ignores the tag.

FROM golang:1.26.8-bookworm@sha256:9fdc884aacc3bec89b20ffc69f4bb369c78210e3e4f600387b5128b12c199f81 AS build

WORKDIR /src

# Dependencies first, so a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download && go mod verify

COPY . .

ARG VERSION=unknown
ARG REVISION=unknown
ARG BRANCH=unknown
ARG BUILD_USER=docker
ARG BUILD_DATE=unknown

# Static binary, version info stamped into prometheus/common/version so
# --version and woox_exporter_build_info report it.
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w \
        -X github.com/prometheus/common/version.Version=${VERSION} \
        -X github.com/prometheus/common/version.Revision=${REVISION} \
        -X github.com/prometheus/common/version.Branch=${BRANCH} \
        -X github.com/prometheus/common/version.BuildUser=${BUILD_USER} \
        -X github.com/prometheus/common/version.BuildDate=${BUILD_DATE}" \
      -o /out/woox_exporter . && \
    CGO_ENABLED=0 go build -trimpath -buildvcs=false -ldflags "-s -w" -o /out/fakeexchange ./cmd/fakeexchange

# The fake exchange of the tests, for the compose example's demo profile
# (docker build --target fakeexchange). Not the default target.
FROM gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab AS fakeexchange
COPY --from=build /out/fakeexchange /bin/fakeexchange
USER nonroot
EXPOSE 8080
ENTRYPOINT ["/bin/fakeexchange"]

FROM gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab

LABEL org.opencontainers.image.title="woox_exporter" \
      org.opencontainers.image.description="Prometheus exporter for WOO X API keys, token networks and token history" \
      org.opencontainers.image.source="https://github.com/woox-exporter/woox_exporter"

COPY --from=build /out/woox_exporter /bin/woox_exporter

USER nonroot

# Default --web.listen-address is :10110.
EXPOSE 10110

ENTRYPOINT ["/bin/woox_exporter"]
