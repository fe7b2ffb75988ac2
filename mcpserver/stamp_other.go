//go:build !linux

package mcpserver

import "io/fs"

// statStamp is the stamp of a file of info: its size and modification time.
func statStamp(info fs.FileInfo) stamp {
	return stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
}
