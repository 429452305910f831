import { createPinia } from 'pinia';
import { createApp } from 'vue';
import App from './App.vue';
import { createDeskI18n } from './i18n/index.ts';
import './styles.css';

createApp(App).use(createPinia()).use(createDeskI18n()).mount('#app');
