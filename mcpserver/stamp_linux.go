package mcpserver

import (
	"io/fs"
	"syscall"
)

// statStamp is the stamp of a file of info.
func statStamp(info fs.FileInfo) stamp {
	s := stamp{size: info.Size(), mtime: info.ModTime().UnixNano()}
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		s.ctime = st.Ctim.Nano()
		s.dev, s.ino = uint64(st.Dev), st.Ino
	}
	return s
}
