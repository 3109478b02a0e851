package vegeta

import "github.com/loadverdict/loadverdict/ingest/core"

// maxUnixSeconds bounds the timestamps the parsers accept: times are
// int64 nanoseconds, and from 1<<62 ns (the year 2116) on a start plus a
// duration could overflow.
const maxUnixSeconds = 1 << 62 / int64(1e9)

// parseRFC3339Fixed reads the fixed layout of RFC 3339 times that load
// generators write (Go's time.RFC3339Nano with a zone): exactly
// "2006-01-02T15:04:05" with digits in range (a real day of the month, no
// leap second), an optional fraction of 1 to 9 digits after a '.', and
// "Z" or "+hh:mm" / "-hh:mm" (hh < 24, mm < 60). It returns the time in
// nanoseconds since the Unix epoch. It reports false for anything else,
// and for times before 1970 or from the year 2116 on (from
// maxUnixSeconds on), which the callers hand to time.Parse: what it accepts,
// Go's parser reads as the same instant (checked by a test and a fuzz
// target), at a tenth of the cost.
func parseRFC3339Fixed(b []byte) (int64, bool) {
	if len(b) < len("2006-01-02T15:04:05Z") {
		return 0, false
	}
	local, ok := rfc3339Local(b[:19])
	if !ok {
		return 0, false
	}
	nsec, rest, ok := rfc3339Fraction(b[19:])
	if !ok {
		return 0, false
	}
	offset, ok := rfc3339Offset(rest)
	if !ok {
		return 0, false
	}
	unix := local - offset
	if unix < 0 || unix >= maxUnixSeconds {
		return 0, false
	}
	return unix*1e9 + nsec, true
}

// rfc3339Local reads "2006-01-02T15:04:05" (years 1970 to 2115, a real
// day, no leap second) as seconds since the epoch in its own zone.
func rfc3339Local(b []byte) (int64, bool) {
	if b[10] != 'T' {
		return 0, false
	}
	days, ok1 := rfc3339Date(b[:10])
	secs, ok2 := rfc3339Clock(b[11:19])
	return days*86400 + secs, ok1 && ok2
}

// rfc3339Date reads "2006-01-02" as days since the epoch.
func rfc3339Date(b []byte) (int64, bool) {
	if b[4] != '-' || b[7] != '-' {
		return 0, false
	}
	year, ok1 := core.ParseUint(b[0:4])
	month, ok2 := core.ParseUint(b[5:7])
	day, ok3 := core.ParseUint(b[8:10])
	if !(ok1 && ok2 && ok3) || year < 1970 || year > 2115 || month < 1 || month > 12 || day < 1 || day > daysInMonth(month, year) {
		return 0, false
	}
	return daysSinceEpoch(year, month, day), true
}

// rfc3339Clock reads "15:04:05" as seconds since midnight.
func rfc3339Clock(b []byte) (int64, bool) {
	if b[2] != ':' || b[5] != ':' {
		return 0, false
	}
	hour, ok1 := core.ParseUint(b[0:2])
	minute, ok2 := core.ParseUint(b[3:5])
	sec, ok3 := core.ParseUint(b[6:8])
	if !(ok1 && ok2 && ok3) || hour > 23 || minute > 59 || sec > 59 {
		return 0, false
	}
	return hour*3600 + minute*60 + sec, true
}

// rfc3339Fraction reads an optional fraction of a second, '.' and 1 to 9
// digits, as nanoseconds, and returns what follows it.
func rfc3339Fraction(rest []byte) (nsec int64, after []byte, ok bool) {
	if rest[0] != '.' {
		return 0, rest, true
	}
	n := 1
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		nsec = nsec*10 + int64(rest[n]-'0')
		n++
	}
	if n == 1 || n > 10 {
		return 0, nil, false
	}
	for range 10 - n {
		nsec *= 10
	}
	return nsec, rest[n:], true
}

// rfc3339Offset reads the zone of a time stamp, "Z" or "+07:00", as an
// offset in seconds east of UTC.
func rfc3339Offset(rest []byte) (int64, bool) {
	var offset int64
	switch {
	case len(rest) == 1 && rest[0] == 'Z':
	case len(rest) == len("+07:00") && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		hh, ok1 := core.ParseUint(rest[1:3])
		mm, ok2 := core.ParseUint(rest[4:6])
		if !ok1 || !ok2 || hh > 23 || mm > 59 {
			return 0, false
		}
		offset = (hh*60 + mm) * 60
		if rest[0] == '-' {
			offset = -offset
		}
	default:
		return 0, false
	}
	return offset, true
}

// daysInMonth returns the days of a month (1-12) of the Gregorian calendar.
func daysInMonth(month, year int64) int64 {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysSinceEpoch returns the days from 1970-01-01 to a date of the
// Gregorian calendar (year >= 1), by the civil-from-days algorithm of
// H. Hinnant.
func daysSinceEpoch(year, month, day int64) int64 {
	if month <= 2 {
		year--
	}
	era := year / 400
	yoe := year - era*400                  // [0, 399]
	mp := (month + 9) % 12                 // March is 0
	doy := (153*mp+2)/5 + day - 1          // [0, 365]
	doe := yoe*365 + yoe/4 - yoe/100 + doy // [0, 146096]
	return era*146097 + doe - 719468
}
