module example.com/rampwebhook

go 1.22

require github.com/gowebpki/jcs v1.0.2
