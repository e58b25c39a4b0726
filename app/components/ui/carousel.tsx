import Autoplay from "embla-carousel-autoplay";
import useEmblaCarousel from "embla-carousel-react";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from "./icons.tsx";

interface CarouselProps {
  label: string;
  slides: ReactNode[];
  /** Milliseconds between slides; omitted, the carousel only moves when asked. */
  autoplayMs?: number;
  className?: string;
}

const reducedMotion = () => typeof window !== "undefined" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Swipeable, looping carousel after the WAI-ARIA carousel pattern: previous/next buttons, one button per
 * slide, and a pause button when it plays by itself (autoplay starts paused for reduced-motion users).
 */
export function Carousel({ label, slides, autoplayMs, className = "" }: CarouselProps) {
  const [plugins] = useState(() =>
    autoplayMs ? [Autoplay({ delay: autoplayMs, stopOnInteraction: false, stopOnMouseEnter: true, playOnInit: !reducedMotion() })] : [],
  );
  const [viewportRef, embla] = useEmblaCarousel({ loop: slides.length > 1, dragThreshold: 5, duration: 25 }, plugins);
  const [selected, setSelected] = useState(0);
  const [playing, setPlaying] = useState(Boolean(autoplayMs) && !reducedMotion());

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    return () => {
      embla.off("select", onSelect);
    };
  }, [embla]);

  const togglePlay = useCallback(() => {
    const autoplay = embla?.plugins().autoplay;
    if (!autoplay) return;
    if (autoplay.isPlaying()) autoplay.stop();
    else autoplay.play();
    setPlaying(autoplay.isPlaying());
  }, [embla]);

  const many = slides.length > 1;
  return (
    <section aria-roledescription="carousel" aria-label={label} className={`relative ${className}`}>
      <div ref={viewportRef} className="overflow-hidden" aria-live={playing ? "off" : "polite"}>
        <div className="flex touch-pan-y">
          {slides.map((slide, index) => (
            <div
              key={index}
              role="group"
              aria-roledescription="slide"
              aria-label={`${index + 1} of ${slides.length}`}
              aria-hidden={index !== selected}
              data-selected={index === selected}
              className="min-w-0 shrink-0 grow-0 basis-full"
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
      {many && (
        <div className="absolute inset-x-0 bottom-3 flex items-center justify-center gap-2">
          {autoplayMs ? (
            <button type="button" onClick={togglePlay} className="carousel-btn" aria-label={playing ? "Pause slideshow" : "Play slideshow"}>
              {playing ? <PauseIcon width={18} height={18} /> : <PlayIcon width={18} height={18} />}
            </button>
          ) : null}
          <button type="button" onClick={() => embla?.scrollPrev()} className="carousel-btn" aria-label="Previous slide">
            <ChevronLeftIcon width={18} height={18} />
          </button>
          {slides.map((_, index) => (
            <button
              key={index}
              type="button"
              onClick={() => embla?.scrollTo(index)}
              aria-label={`Go to slide ${index + 1}`}
              aria-current={index === selected}
              className={`size-3 rounded-full border-2 border-white shadow ${index === selected ? "bg-white" : "bg-white/30"}`}
            />
          ))}
          <button type="button" onClick={() => embla?.scrollNext()} className="carousel-btn" aria-label="Next slide">
            <ChevronRightIcon width={18} height={18} />
          </button>
        </div>
      )}
    </section>
  );
}
