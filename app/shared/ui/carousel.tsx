import type { EmblaCarouselType } from "embla-carousel";
import { useCallback, useEffect, useRef, useState, type FocusEvent, type ReactNode } from "react";
import { ChevronLeftIcon, ChevronRightIcon, PauseIcon, PlayIcon } from "./icons.tsx";

interface CarouselProps {
  label: string;
  slides: ReactNode[];
  /** Milliseconds between slides; omitted, the carousel only moves when asked. */
  autoplayMs?: number;
  className?: string;
}

const prefersReducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Swipeable, looping carousel after the WAI-ARIA carousel pattern: previous/next buttons, one button per
 * slide, and, when it plays by itself, a pause button whose choice sticks. Rotation also rests while the
 * mouse is over the carousel, and stops for good when keyboard focus enters it or the visitor prefers
 * reduced motion — until the play button is pressed.
 *
 * The first slide is plain server-rendered markup; the swipe engine (Embla) loads once the carousel has
 * mounted, so it is not part of the page's first load (docs/decisions/028). Until then (and
 * without JavaScript) the buttons that move the slides are disabled: a click they could not carry out
 * would be lost. A carousel of one slide never loads the engine.
 */
export function Carousel({ label, slides, autoplayMs, className = "" }: CarouselProps) {
  const many = slides.length > 1;
  const viewportRef = useRef<HTMLDivElement>(null);
  const [embla, setEmbla] = useState<EmblaCarouselType>();
  const [selected, setSelected] = useState(0);
  const [paused, setPaused] = useState(false);
  const [hovered, setHovered] = useState(false);
  const rotating = Boolean(autoplayMs) && many && !paused && !hovered;

  useEffect(() => {
    if (prefersReducedMotion()) setPaused(true);
  }, []);

  useEffect(() => {
    if (!many) return;
    let live = true;
    let engine: EmblaCarouselType | undefined;
    void import("embla-carousel").then(({ default: EmblaCarousel }) => {
      if (!live || !viewportRef.current) return;
      engine = EmblaCarousel(viewportRef.current, { loop: true, dragThreshold: 5, duration: 25 });
      setEmbla(engine);
    });
    return () => {
      live = false;
      engine?.destroy();
      setEmbla(undefined);
    };
  }, [many]);

  useEffect(() => {
    if (!embla) return;
    const onSelect = () => setSelected(embla.selectedScrollSnap());
    embla.on("select", onSelect);
    return () => {
      embla.off("select", onSelect);
    };
  }, [embla]);

  // One timer: any change of slide, by hand or by the timer, starts the wait again; a drag holds it.
  useEffect(() => {
    if (!embla || !autoplayMs || !rotating) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const wait = () => {
      clearTimeout(timer);
      timer = setTimeout(() => embla.scrollNext(), autoplayMs);
    };
    const hold = () => clearTimeout(timer);
    embla.on("select", wait).on("pointerDown", hold).on("pointerUp", wait);
    wait();
    return () => {
      clearTimeout(timer);
      embla.off("select", wait).off("pointerDown", hold).off("pointerUp", wait);
    };
  }, [embla, autoplayMs, rotating]);

  const pauseOnKeyboardFocus = useCallback((event: FocusEvent) => {
    if (event.target.matches(":focus-visible")) setPaused(true);
  }, []);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={label}
      className={`relative ${className}`}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={autoplayMs ? pauseOnKeyboardFocus : undefined}
    >
      <div ref={viewportRef} className="overflow-hidden" aria-live={rotating ? "off" : "polite"}>
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
            <button
              type="button"
              onClick={() => setPaused(!paused)}
              className="carousel-btn"
              aria-label={paused ? "Play slideshow" : "Pause slideshow"}
            >
              {paused ? <PlayIcon width={18} height={18} /> : <PauseIcon width={18} height={18} />}
            </button>
          ) : null}
          <button type="button" onClick={() => embla?.scrollPrev()} disabled={!embla} className="carousel-btn" aria-label="Previous slide">
            <ChevronLeftIcon width={18} height={18} />
          </button>
          {slides.map((_, index) => (
            // A 24 px target around a 12 px dot (WCAG 2.5.8).
            <button
              key={index}
              type="button"
              onClick={() => embla?.scrollTo(index)}
              disabled={!embla}
              aria-label={`Go to slide ${index + 1}`}
              aria-current={index === selected}
              className="grid size-6 place-items-center rounded-full disabled:opacity-60"
            >
              <span aria-hidden="true" className={`size-3 rounded-full border-2 border-white shadow ${index === selected ? "bg-white" : "bg-white/30"}`} />
            </button>
          ))}
          <button type="button" onClick={() => embla?.scrollNext()} disabled={!embla} className="carousel-btn" aria-label="Next slide">
            <ChevronRightIcon width={18} height={18} />
          </button>
        </div>
      )}
    </section>
  );
}
