package parsers

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// newXMLDecoder reads r with encoding/xml, through an xmlLimiter that holds
// it to the scanner's bounds (depth, tag and text sizes).
func newXMLDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(newXMLLimiter(r))
	d.CharsetReader = charsetReader
	return d
}

// xmlFail wraps an XML error with the input name and its line and column.
func xmlFail(name string, d *xml.Decoder, err error) error {
	line, col := d.InputPos()
	var se *xml.SyntaxError
	var le *xmlLimitError
	switch {
	case errors.As(err, &le):
		line, col = le.line, 0
	case errors.As(err, &se):
		line, col = se.Line, 0
		err = errors.New("XML syntax error: " + se.Msg)
	case errors.Is(err, io.EOF):
		err = errors.New("unexpected end of input")
	}
	return &ParseError{Input: name, Line: line, Column: col, Offset: d.InputOffset(), Err: err}
}

// xmlRootElement reads up to the root element and checks its name.
func xmlRootElement(name string, d *xml.Decoder, want string) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if d.InputOffset() == 0 {
				return xml.StartElement{}, &ParseError{Input: name, Offset: 0, Err: ErrEmpty}
			}
			return xml.StartElement{}, xmlFail(name, d, errors.New("no root element"))
		}
		if err != nil {
			return xml.StartElement{}, xmlFail(name, d, err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if se.Name.Local != want {
				return se, xmlFail(name, d, fmt.Errorf("root element is <%s>, want <%s>", se.Name.Local, want))
			}
			return se, nil
		}
	}
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// atoi reads a non-negative number attribute; anything else is 0 (unknown).
func atoi(s string) int {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0 // an attribute left out (Checkstyle's column): no error to make
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// xmlAfterRoot reads what follows the root element: white space, comments and
// processing instructions only, up to the end of the input; anything else
// is the scanner's error (see xmlScanner.end).
func xmlAfterRoot(name string, d *xml.Decoder) error {
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return xmlFail(name, d, err)
		}
		switch t := tok.(type) {
		case xml.Comment, xml.ProcInst, xml.Directive:
			continue
		case xml.CharData:
			if len(bytes.TrimLeft(t, " \t\r\n")) == 0 {
				continue
			}
		}
		line, _ := d.InputPos()
		return &ParseError{Input: name, Line: line, Offset: d.InputOffset(), Err: errors.New("XML syntax error: " + errAfterRoot)}
	}
}

// walkXML reads a report whose root element is rootName: it calls start with
// the root element, then each with every token until the root closes. An
// input that ends before is an error at its end; every error names the input
// and the place.
func walkXML(name string, r io.Reader, rootName string, start func(xml.StartElement), each func(xml.Token) error) error {
	d := newXMLDecoder(r)
	root, err := xmlRootElement(name, d, rootName)
	if err != nil {
		return err
	}
	start(root)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return xmlFail(name, d, io.ErrUnexpectedEOF)
		}
		if err != nil {
			return xmlFail(name, d, err)
		}
		if end, ok := tok.(xml.EndElement); ok && end.Name.Local == rootName {
			return xmlAfterRoot(name, d)
		}
		if err := each(tok); err != nil {
			return err
		}
	}
}
