import type { Locale } from '@/lib/i18n/locales';
import type en from '@/messages/en.json';

// next-intl's keys and locales are typed from English, the reference file.
declare module 'use-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
