import { COPYRIGHT_YEAR } from "#common/shared/constants.ts";
import { messages } from "#common/shared/messages.ts";

export function SiteFooter({ shopName, author }: { shopName: string; author: string }) {
  return (
    <footer className="border-t border-stone-200 bg-leaf-50">
      <div className="container-page flex flex-col items-center justify-between gap-3 py-6 text-sm text-stone-700 sm:flex-row">
        <p>
          © {COPYRIGHT_YEAR} {shopName}
        </p>
        <p>
          {messages.madeWithLoveBy} {author}
        </p>
      </div>
    </footer>
  );
}
