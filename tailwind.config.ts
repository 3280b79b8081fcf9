import type { Config } from 'tailwindcss';

// Tailwind v4 reads this file only through `@config` in app/globals.css.
export default {
  content: ['./app/**/*.{ts,tsx}', './components/**/*.{ts,tsx}'],
  darkMode: 'media',
  theme: {
    extend: {
      colors: {
        brand: {
          50: '#eef6ff',
          100: '#d9eaff',
          500: '#2f6fdb',
          600: '#2459b8',
          700: '#1d4790',
        },
      },
    },
  },
} satisfies Config;
