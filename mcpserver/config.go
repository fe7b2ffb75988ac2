package mcpserver

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/recap-dev/recap/config"
)

// config reads the root's configuration file (docs/config.md) at each
// call, through the root (it is small, and may change between calls), and
// returns it with a key that changes with its content (its name and a
// SHA-256 of its bytes: a rewrite of the same size within one tick of the
// clock is seen); nil and "" when there is none. The file is opened once,
// without waiting, and refused unless a regular file (config.ReadRoot).
func (s *Server) config() (*config.Config, string, error) {
	name, data, err := config.ReadRoot(s.root.fs)
	if err != nil && !s.root.fs.Exists() {
		return nil, "", s.root.gone()
	}
	if err != nil {
		return nil, "", toolErrorf(CodeBadArgument, "configuration: %v", err)
	}
	if name == "" {
		return nil, "", nil
	}
	cfg, err := config.Parse(name, data)
	if err != nil {
		return nil, "", toolErrorf(CodeBadArgument, "configuration: %v (fix the file, see docs/config.md)", err)
	}
	sum := sha256.Sum256(data)
	return cfg, name + " " + hex.EncodeToString(sum[:]), nil
}
