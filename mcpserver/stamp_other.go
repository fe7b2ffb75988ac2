//go:build !linux

package mcpserver

import "io/fs"

// stampOf is the stamp of a file of info: its size and modification time.
func stampOf(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
}
