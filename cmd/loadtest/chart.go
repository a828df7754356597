package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// writeGrowthChart draws the cost growth as a PNG: peak RSS, and scrape
// p99 of the exporter beside its floor, against the number of accounts
// (log scale), from the figures just measured.
func writeGrowthChart(path string, rows []growthRow) error {
	if len(rows) == 0 {
		return nil
	}
	const w, h = 960, 380
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Bounds(), image.NewUniform(color.White), image.Point{}, draw.Src)
	xs := make([]float64, len(rows))
	for i, r := range rows {
		xs[i] = math.Log10(float64(r.accounts))
	}
	rss := make([]float64, len(rows))
	p99 := make([]float64, len(rows))
	floor := make([]float64, len(rows))
	for i, r := range rows {
		rss[i] = mb(r.peakRSS)
		p99[i] = r.p99.Seconds() * 1000
		floor[i] = r.floorP99.Seconds() * 1000
	}
	blue, red, grey := color.RGBA{31, 119, 180, 255}, color.RGBA{214, 39, 40, 255}, color.RGBA{140, 140, 140, 255}
	panel(img, image.Rect(20, 20, w/2-10, h-20), "peak RSS, MB", rows, xs, []series{{rss, blue, "exporter"}})
	panel(img, image.Rect(w/2+10, 20, w-20, h-20), "scrape p99, ms (1 scraper)", rows, xs,
		[]series{{p99, red, "exporter"}, {floor, grey, "promhttp floor"}})
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type series struct {
	y     []float64
	c     color.Color
	label string
}

// panel draws one chart in r: axes from 0 to the largest value, the x axis
// labelled with accounts and series, a line and dots per series.
func panel(img *image.RGBA, r image.Rectangle, title string, rows []growthRow, xs []float64, ss []series) {
	black := color.RGBA{0, 0, 0, 255}
	text(img, r.Min.X+40, r.Min.Y+12, title, black)
	plot := image.Rect(r.Min.X+50, r.Min.Y+30, r.Max.X-20, r.Max.Y-50)
	line(img, plot.Min.X, plot.Max.Y, plot.Max.X, plot.Max.Y, black)
	line(img, plot.Min.X, plot.Min.Y, plot.Min.X, plot.Max.Y, black)
	top := 0.0
	for _, s := range ss {
		for _, v := range s.y {
			top = max(top, v)
		}
	}
	top = niceCeil(top * 1.1)
	for i := 0; i <= 4; i++ {
		v := top * float64(i) / 4
		y := plot.Max.Y - int(float64(plot.Dy())*float64(i)/4)
		line(img, plot.Min.X-4, y, plot.Min.X, y, black)
		text(img, r.Min.X, y+4, fmt.Sprintf("%.4g", v), black)
	}
	xmax := xs[len(xs)-1]
	px := func(x float64) int {
		if xmax == 0 {
			return plot.Min.X + plot.Dx()/2
		}
		return plot.Min.X + 20 + int(float64(plot.Dx()-40)*x/xmax)
	}
	py := func(v float64) int { return plot.Max.Y - int(float64(plot.Dy())*v/top) }
	for i, row := range rows {
		x := px(xs[i])
		line(img, x, plot.Max.Y, x, plot.Max.Y+4, black)
		text(img, x-20, plot.Max.Y+18, fmt.Sprintf("%d acct", row.accounts), black)
		text(img, x-24, plot.Max.Y+32, fmt.Sprintf("%dk series", (row.series+500)/1000), black)
	}
	for k, s := range ss {
		for i := range s.y {
			x, y := px(xs[i]), py(s.y[i])
			dot(img, x, y, s.c)
			if i > 0 {
				line(img, px(xs[i-1]), py(s.y[i-1]), x, y, s.c)
			}
		}
		text(img, plot.Min.X+10, plot.Min.Y+14+14*k, s.label, s.c)
	}
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if v <= m*p {
			return m * p
		}
	}
	return 10 * p
}

func text(img *image.RGBA, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func dot(img *image.RGBA, x, y int, c color.Color) {
	for dx := -3; dx <= 3; dx++ {
		for dy := -3; dy <= 3; dy++ {
			if dx*dx+dy*dy <= 9 {
				img.Set(x+dx, y+dy, c)
			}
		}
	}
}

// line draws from (x0, y0) to (x1, y1), two pixels wide (Bresenham).
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		img.Set(x0, y0, c)
		img.Set(x0, y0+1, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		if e2 := 2 * e; e2 >= dy {
			e += dy
			x0 += sx
		} else {
			e += dx
			y0 += sy
		}
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

func sign(v int) int {
	switch {
	case v < 0:
		return -1
	case v > 0:
		return 1
	}
	return 0
}
